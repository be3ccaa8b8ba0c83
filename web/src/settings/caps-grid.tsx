import { Fragment, type ReactNode } from 'react';
import { CAPS, CAP_LABEL, type Cap } from './policy-types.js';

/**
 * A table with one column per cap (time, total time, tokens, dollars) and one row per scope: the
 * caps per level of Settings › Policy and the preview of the draft's caps on a chain. `cell` draws
 * a row's `<td>` of one cap.
 */
export function CapsGrid<Row>({
  className,
  label,
  corner,
  rows,
  rowKey,
  rowClass,
  head,
  cell,
}: {
  className: string;
  label?: string;
  /** The first column's heading ("Level", "Scope"). */
  corner: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowClass?: (row: Row) => string;
  head: (row: Row) => ReactNode;
  cell: (row: Row, cap: Cap) => ReactNode;
}) {
  return (
    <div className="caps-scroll">
      <table className={className} aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{corner}</th>
            {CAPS.map((c) => (
              <th key={c} scope="col">
                {CAP_LABEL[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClass?.(row)}>
              <th scope="row">{head(row)}</th>
              {CAPS.map((cap) => (
                <Fragment key={cap}>{cell(row, cap)}</Fragment>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
