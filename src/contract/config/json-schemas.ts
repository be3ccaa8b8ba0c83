import { z } from 'zod';
import { AccessFile } from './access.js';
import { ChainFile } from './chain.js';
import { HarnessesFile } from './harnesses.js';
import { IntakeFile } from './intake.js';
import { LibraryFile } from './library.js';
import { NotifyFile } from './notify.js';
import { PolicyFile } from './policy.js';
import { ReposFile } from './repos.js';
import { ThemeFile } from './theme.js';
import { AddonManifest, AddonsFile, AddonsLock, CollectionIndex } from '../addons.js';

/** Each config file's schema, by the name of its JSON Schema file (`schemas/<name>.schema.json`). */
export const CONFIG_FILE_SCHEMAS: Record<string, { schema: z.ZodType; title: string }> = {
  library: { schema: LibraryFile, title: 'Jig library.yaml' },
  chain: { schema: ChainFile, title: 'Jig chains/<id>.yaml' },
  harnesses: { schema: HarnessesFile, title: 'Jig harnesses.yaml' },
  policy: { schema: PolicyFile, title: 'Jig policy.yaml' },
  repos: { schema: ReposFile, title: 'Jig repos.yaml' },
  intake: { schema: IntakeFile, title: 'Jig intake.yaml' },
  access: { schema: AccessFile, title: 'Jig access.yaml' },
  theme: { schema: ThemeFile, title: 'Jig theme.yaml' },
  notify: { schema: NotifyFile, title: 'Jig notify.yaml' },
  addon: { schema: AddonManifest, title: 'Jig add-on manifest (.jig/addon.json)' },
  collection: { schema: CollectionIndex, title: 'Jig add-on collection (.jig/collection.json)' },
  addons: { schema: AddonsFile, title: 'Jig addons.yaml' },
  'addons-lock': { schema: AddonsLock, title: 'Jig addons.lock' },
};

/**
 * JSON Schemas for editors (yaml-language-server), generated from the zod schemas so the two
 * cannot drift. `io: 'input'` describes what a person writes (defaults optional).
 */
export function configJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, { schema, title }] of Object.entries(CONFIG_FILE_SCHEMAS)) {
    const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', reused: 'ref' });
    out[`${name}.schema.json`] = `${JSON.stringify({ title, ...json }, null, 2)}\n`;
  }
  return out;
}
