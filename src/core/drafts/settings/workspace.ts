import type { ConfigSet, ConfigTexts } from '../../config/validate-set.js';
import { sameData } from '../../json/same.js';
import { parseText, textOf } from '../texts.js';
import { OpRefused } from '../ops/context.js';
import type { SettingsAreaName, SettingsDocs, SettingsFacts } from './docs.js';
import { writeOver } from '../write-over.js';

/**
 * The documents one ops request on a settings draft works on: each file parsed to plain data from
 * the config set with the draft laid over, copied the first time an op reads it. After the ops,
 * `changedTexts` writes each changed document back over its own text, comments kept.
 */
export class SettingsWorkspace implements SettingsDocs {
  private readonly start = new Map<string, unknown>();
  private readonly work = new Map<string, unknown>();
  private checked: ConfigSet | null = null;

  constructor(
    readonly area: SettingsAreaName,
    /** The config set with the draft's files laid over. */
    private readonly texts: ConfigTexts,
    /** Checks the set; called once, and only by an op that reads it (most ops read only their file). */
    private readonly check: () => ConfigSet,
    readonly facts: SettingsFacts,
  ) {}

  get set(): ConfigSet {
    this.checked ??= this.check();
    return this.checked;
  }

  doc(file: string): unknown {
    if (!this.work.has(file)) {
      const read = parseText(textOf(this.texts, file));
      if (!read.ok) throw new OpRefused(`${file} does not parse; fix its YAML first`);
      this.start.set(file, structuredClone(read.value));
      this.work.set(file, structuredClone(read.value));
    }
    return this.work.get(file);
  }

  setDoc(file: string, value: unknown): void {
    this.doc(file);
    this.work.set(file, value);
  }

  /** The files the ops changed, each written over its own text (`LayoutRefused` when it cannot take it). */
  changedTexts(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [file, value] of this.work) {
      if (sameData(value, this.start.get(file))) continue;
      out[file] = writeOver(textOf(this.texts, file), value);
    }
    return out;
  }
}
