import type { Draft } from '../drafts/use-area-draft.js';

/*
 * The trackers auto-intake reads besides beads: intake.yaml's `issues:`, `linear:` and `jira:`
 * blocks (docs/intake.md). The intake draft's ops set only the spec's four keys and the
 * schedules, so these are shown as the draft holds them, read-only, with where to change them.
 */

const TRACKERS = [
  {
    key: 'issues',
    title: 'Forge issues',
    fields: ['label', 'priority_labels', 'epic_label', 'default_priority'],
  },
  { key: 'linear', title: 'Linear', fields: ['team', 'label', 'repo'] },
  { key: 'jira', title: 'Jira', fields: ['site', 'project', 'jql', 'email', 'repo'] },
] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function shown(v: unknown): string {
  if (v === undefined) return 'not set';
  if (v === null) return 'null';
  if (isRecord(v))
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${shown(x)}`)
      .join(', ');
  if (Array.isArray(v)) return v.map(shown).join(', ');
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function IntakeTrackers({ draft }: { draft: Draft }) {
  const file = draft.result.model['intake.yaml'];
  const top = isRecord(file) ? file : {};
  return (
    <section className="settings-card" aria-labelledby="trackers-h">
      <h2 id="trackers-h">Trackers</h2>
      <p className="muted">
        Beads are read wherever a repository has <code>.beads/</code>. The blocks below are read-only here:
        the intake draft has no op for them, so change them in <code>intake.yaml</code> by hand; the server
        rereads it on the next publish or reload.
      </p>
      <div className="trackers">
        {TRACKERS.map((t) => {
          const block = top[t.key];
          return (
            <section key={t.key} className="tracker" aria-label={t.title}>
              <h3>
                {t.title} <code className="small">{t.key}:</code>
              </h3>
              {isRecord(block) ? (
                <dl>
                  {t.fields.map((f) => (
                    <div key={f} className="tracker-row">
                      <dt>{f}</dt>
                      <dd className={block[f] === undefined ? 'muted' : undefined}>{shown(block[f])}</dd>
                    </div>
                  ))}
                  {Object.keys(block)
                    .filter((k) => !t.fields.some((f) => f === k))
                    .map((k) => (
                      <div key={k} className="tracker-row">
                        <dt>{k}</dt>
                        <dd>{shown(block[k])}</dd>
                      </div>
                    ))}
                </dl>
              ) : (
                <p className="muted small">Not set: auto-intake does not read {t.title}.</p>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}
