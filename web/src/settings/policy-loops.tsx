import type { AreaDraft } from '../drafts/use-area-draft.js';
import type { Problem } from './draft.js';
import { FieldProblems, Source } from './draft.js';
import { NumberField } from './field.js';
import type { PolicyResolved, Sourced } from './policy-types.js';

/*
 * Fix loops: the `default:` block, then every fix loop of the library's chains with the limits it
 * runs under now and which layer sets them ("live values"), and the `loops:` overrides, each
 * edited with `set_loop` / `remove_loop`.
 */

export function PolicyLoops({
  d,
  r,
  at,
}: {
  d: AreaDraft;
  r: PolicyResolved;
  at: (key: string) => Problem[];
}) {
  const loops = r.loops;
  const entry = (key: string) => loops.entries.find((e) => e.key === key);
  const liveKeys = [...new Set(loops.live.map((l) => l.key))];
  const dead = loops.entries.filter((e) => !e.live);
  const set = (key: string) => (value: unknown) => d.apply([{ op: 'set_value', scope: 'loops', key, value }]);
  // `set_loop` without a limit keeps the entry's value, so an empty field cannot mean "unset":
  // it removes the entry when the entry sets no other limit, and is refused at the field otherwise.
  const setLoop = (key: string, field: 'max_attempts' | 'wall_clock_s') => (v: number | null) =>
    d.apply([v === null ? { op: 'remove_loop', key } : { op: 'set_loop', key, [field]: v }]);
  const keepOther = (key: string, other: Sourced<number | null>) =>
    other.source === 'policy'
      ? `An override keeps both limits: type a number, or remove the override of ${key}.`
      : undefined;

  return (
    <section className="settings-card" aria-labelledby="loops-h">
      <h2 id="loops-h">Fix loops</h2>
      <div className="fields">
        <NumberField
          label="Loop attempts (default)"
          value={loops.default.attempts.value}
          source={loops.default.attempts.source}
          problems={at('default.attempts')}
          disabled={d.busy}
          onSave={set('default.attempts')}
        />
        <NumberField
          label="Loop wall clock, s (default)"
          value={loops.default.wall_clock_s.value}
          source={loops.default.wall_clock_s.source}
          problems={at('default.wall_clock_s')}
          disabled={d.busy}
          onSave={set('default.wall_clock_s')}
        />
      </div>
      <table className="loops">
        <thead>
          <tr>
            <th scope="col">Loop</th>
            <th scope="col">Runs now with</th>
            <th scope="col">Override in policy.yaml</th>
          </tr>
        </thead>
        <tbody>
          {liveKeys.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                No chain has a fix loop.
              </td>
            </tr>
          )}
          {liveKeys.map((key) => {
            const e = entry(key);
            return (
              <tr key={key}>
                <th scope="row">
                  <code>{key}</code>
                </th>
                <td>
                  {loops.live
                    .filter((l) => l.key === key)
                    .map((l) => (
                      <div key={l.chain} className="small">
                        {l.chain}: <Live v={l.attempts} unit="attempts" />,{' '}
                        <Live v={l.wall_clock_s} unit="s" />
                      </div>
                    ))}
                </td>
                <td>
                  {e ? (
                    <div className="loop-entry">
                      <NumberField
                        label={`${key} attempts`}
                        short="attempts"
                        value={e.attempts.value}
                        source={e.attempts.source}
                        disabled={d.busy}
                        required={keepOther(key, e.wall_clock_s)}
                        onSave={setLoop(key, 'max_attempts')}
                      />
                      <NumberField
                        label={`${key} wall clock`}
                        short="wall clock (s)"
                        value={e.wall_clock_s.value}
                        source={e.wall_clock_s.source}
                        disabled={d.busy}
                        required={keepOther(key, e.attempts)}
                        onSave={setLoop(key, 'wall_clock_s')}
                      />
                      <button
                        className="link"
                        disabled={d.busy}
                        onClick={() => void d.apply([{ op: 'remove_loop', key }])}
                      >
                        Remove override of {key}
                      </button>
                      <FieldProblems problems={at(`loops.${key}`)} />
                    </div>
                  ) : (
                    <button disabled={d.busy} onClick={() => void d.apply([{ op: 'set_loop', key }])}>
                      Override {key}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
          {dead.map((e) => (
            <tr key={e.key}>
              <th scope="row">
                <code>{e.key}</code>
              </th>
              <td className="warn small">No chain has this loop.</td>
              <td>
                <button
                  className="link"
                  disabled={d.busy}
                  onClick={() => void d.apply([{ op: 'remove_loop', key: e.key }])}
                >
                  Remove override of {e.key}
                </button>
                <FieldProblems problems={at(`loops.${e.key}`)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Live({ v, unit }: { v: Sourced<number | null>; unit: string }) {
  return (
    <span>
      {v.value ?? '—'} {unit} <Source source={v.source} />
    </span>
  );
}
