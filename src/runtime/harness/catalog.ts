import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadProviders, type ProvidersLoad } from '../../core/harness/load-providers.js';
import { parsePriceTable, type PriceTable } from '../../core/harness/prices.js';
import { packageRoot } from '../package-root.js';
import { readConfigFile } from '../fs/config-text.js';

const packagedDir = join(packageRoot, 'defaults', 'harnesses');
const pricesFile = join(packageRoot, 'defaults', 'prices.json');

function sources(dir: string, label: string): { file: string; text: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .flatMap((f) => {
      // A definition that is not a regular file (a FIFO a task left) is skipped, never waited on.
      const read = readConfigFile(join(dir, f));
      return read.ok ? [{ file: `${label}/${f}`, text: read.text }] : [];
    });
}

/** A cheap fingerprint of a folder's YAML files, so definitions are re-read only when one changes. */
function signature(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .sort()
    .map((f) => {
      const st = statSync(join(dir, f));
      return `${f}:${st.mtimeMs}:${st.size}`;
    })
    .join('|');
}

/**
 * Provider definitions (the packaged ones with `config/harnesses/<id>.yaml` laid over them) and the
 * packaged price table. A user file counts from the next launch after it is saved.
 */
export class HarnessCatalog {
  private cached: { sig: string; load: ProvidersLoad } | null = null;
  private priceTable: PriceTable | null = null;

  constructor(private readonly configDir: string) {}

  providers(): ProvidersLoad {
    const userDir = join(this.configDir, 'harnesses');
    const sig = signature(userDir);
    if (this.cached?.sig === sig) return this.cached.load;
    const load = loadProviders({
      packaged: sources(packagedDir, 'defaults/harnesses'),
      user: sources(userDir, 'harnesses'),
    });
    this.cached = { sig, load };
    return load;
  }

  prices(): PriceTable {
    this.priceTable ??= parsePriceTable(readFileSync(pricesFile, 'utf8'));
    return this.priceTable;
  }
}
