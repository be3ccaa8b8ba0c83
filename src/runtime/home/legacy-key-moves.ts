import { parseCron } from '../../core/cron/parse.js';
import { appendItems, replaceValue, setUnlessSet, spreadInto } from './key-movers.js';
import { keyMove, type ConfigFileName, type KeyMoveRow } from './key-moves.js';

/** 1.x palettes as the 2.0 surface, accent and colour amount; an unknown one reads as nocturne. */
const NOCTURNE = { surface: 'cool', accent: 'indigo', colour_amount: 40 };
const PALETTES: Record<string, { surface: string; accent: string; colour_amount: number }> = {
  nocturne: NOCTURNE,
  rose: { surface: 'warm', accent: 'rose', colour_amount: 40 },
  forest: { surface: 'neutral', accent: 'green', colour_amount: 40 },
  amber: { surface: 'warm', accent: 'amber', colour_amount: 40 },
  slate: { surface: 'cool', accent: 'slate', colour_amount: 20 },
};

/** Whether a 1.x trigger's cron parses (only those move: see the triggers row). */
function cronParses(trigger: unknown): boolean {
  const cron =
    typeof trigger === 'object' && trigger !== null && 'cron' in trigger ? trigger.cron : undefined;
  return typeof cron === 'string' && parseCron(cron).ok;
}

/** Files whose 1.x text is kept beside them as `<file>.pre-2.0` when a move rewrites them. */
export const LEGACY_KEEP_ORIGINAL: readonly ConfigFileName[] = ['theme.yaml'];

/**
 * Keys that moved in 2.0 (spec: Behavior changes, Config), applied in this order on every start
 * by `applyKeyMoves`. A later move is one more row.
 */
export const LEGACY_KEY_MOVES: readonly KeyMoveRow[] = [
  keyMove({
    key: 'policy-triggers',
    from: { file: 'policy.yaml', path: ['triggers'] },
    to: { file: 'intake.yaml', path: ['schedules'] },
    // A cron that does not parse stays in policy.yaml, where it is skipped with a warning (or
    // refuses the file, if it cannot be read at all), rather than turning intake.yaml off.
    how: appendItems({ stays: (t) => !cronParses(t) }),
    notice: ({ moved, kept }) =>
      `moved ${moved} schedule(s) from policy.yaml triggers: to intake.yaml schedules:` +
      (kept > 0 ? `; left ${kept} whose cron does not parse in policy.yaml` : ''),
    tellUnparsable: true,
  }),
  keyMove({
    key: 'intake-max-concurrent',
    from: { file: 'intake.yaml', path: ['max_concurrent'] },
    to: { file: 'policy.yaml', path: ['max_concurrent'] },
    how: setUnlessSet(),
    notice: ({ value, kept }) =>
      kept
        ? 'dropped max_concurrent from intake.yaml: policy.yaml already sets one'
        : `moved max_concurrent: ${String(value)} from intake.yaml to policy.yaml`,
    // This move never reported an intake.yaml that does not parse (the config check reports the file).
    tellUnparsable: false,
  }),
  keyMove({
    key: 'theme-palette',
    from: { file: 'theme.yaml', path: ['palette'] },
    to: { file: 'theme.yaml', path: [] },
    how: spreadInto((palette) => PALETTES[palette] ?? NOCTURNE),
    notice: ({ value, into }) =>
      `theme.yaml palette: ${value} became surface: ${into.surface}, accent: ${into.accent}, colour_amount: ${into.colour_amount}; the original is kept as theme.yaml.pre-2.0`,
    tellUnparsable: true,
  }),
  keyMove({
    key: 'theme-group-by',
    from: { file: 'theme.yaml', path: ['board', 'group_by'] },
    to: { file: 'theme.yaml', path: ['board', 'group_by'] },
    how: replaceValue('template', 'chain'),
    notice: () => 'theme.yaml board.group_by: template became chain',
    // The palette row has said it for theme.yaml.
    tellUnparsable: false,
  }),
];
