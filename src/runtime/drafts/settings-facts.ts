import type { SettingsFacts } from '../../core/drafts/settings/docs.js';
import type { ConfigTexts } from '../../core/config/validate-set.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { openCountsByRepo } from '../../store/work-items.js';
import type { Db } from '../../store/drafts.js';
import { HarnessCatalog } from '../harness/catalog.js';
import { resolveExecutable } from '../harness/installed.js';
import { repoPathState, type RepoPathState } from '../repos/repo-state.js';

/** The machine's facts for one request, answered for the config texts a draft has at that moment. */
export interface FactSource {
  forTexts(texts: ConfigTexts): SettingsFacts;
}

function memo<T>(f: (key: string) => T): (key: string) => T {
  const seen = new Map<string, T>();
  return (key) => {
    let v = seen.get(key);
    if (v === undefined) {
      v = f(key);
      seen.set(key, v);
    }
    return v;
  };
}

/**
 * What a settings draft's ops and result need from the running machine, read once per request:
 * the provider definitions and the items not ended per repo; executables and repo paths are
 * looked up on demand (an op may change a harness's executable or add a repo) and memoised.
 */
export async function settingsFacts(db: Db, configDir: string): Promise<FactSource> {
  const providers = new HarnessCatalog(configDir).providers().providers;
  const openItems = await openCountsByRepo(db);
  const found = memo((command) => resolveExecutable(command) !== null);
  const repoPath = memo<RepoPathState>(repoPathState);
  return {
    forTexts(texts) {
      const harnesses = loadHarnesses(texts.harnesses ?? null).model?.harnesses ?? {};
      const executableFound = Object.fromEntries(
        Object.entries(harnesses).map(([id, h]) => [
          id,
          found(h.executable ?? providers[h.provider]?.command[0] ?? h.provider),
        ]),
      );
      return { executableFound, providers, openItems, repoPath };
    },
  };
}
