import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** A skill's name: the same shape as every other identifier, so it can never leave its folder. */
const SKILL_NAME = /^[a-z][a-z0-9_-]*$/;
const PACKAGED_NAMESPACE = 'jig';

export type SkillText = { ok: true; text: string; origin: string } | { ok: false; reason: string };

/**
 * Removes a leading YAML front matter block (`---` … `---` or `...`), which describes the skill
 * for people and other tools but is not an instruction to the agent. Text without a closed block
 * is returned as it is.
 */
export function stripFrontMatter(text: string): string {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return body;
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  if (end < 0) return body;
  return lines
    .slice(end + 1)
    .join('\n')
    .replace(/^\s*\n/, '');
}

/**
 * The skills agent tasks name with `skill:`. `jig:<name>` is Jig's own, packaged in
 * `defaults/skills/<name>/SKILL.md`; a bare `<name>` is the user's `<configDir>/skills/<name>/SKILL.md`
 * and falls back to the packaged one of that name. Other namespaces belong to add-ons, which the
 * agent runner reads at the item's pinned version (runtime/addons/content.ts). Files are re-read
 * only when their modification time or size changes.
 */
export class SkillCatalog {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; text: string }>();
  private readonly packagedDir = join(packageRoot, 'defaults', 'skills');

  constructor(private readonly configDir: string) {}

  text(ref: string): SkillText {
    const colon = ref.indexOf(':');
    const namespace = colon >= 0 ? ref.slice(0, colon) : null;
    const name = colon >= 0 ? ref.slice(colon + 1) : ref;
    if (namespace !== null && namespace !== PACKAGED_NAMESPACE) {
      if (!SKILL_NAME.test(namespace))
        return { ok: false, reason: `skill \`${ref}\`: not a skill reference` };
      return {
        ok: false,
        reason: `skill \`${ref}\`: \`${namespace}\` is not an installed add-on (\`jig admin addon list\`); use \`jig:<name>\` or a skill in your config's skills/ folder`,
      };
    }
    if (!SKILL_NAME.test(name)) {
      return {
        ok: false,
        reason: `skill \`${ref}\`: a skill name is a lowercase letter followed by lowercase letters, digits, \`_\` or \`-\``,
      };
    }
    const candidates =
      namespace === null
        ? [join(this.configDir, 'skills', name, 'SKILL.md'), join(this.packagedDir, name, 'SKILL.md')]
        : [join(this.packagedDir, name, 'SKILL.md')];
    for (const file of candidates) {
      const read = this.read(file);
      if (read === null) continue;
      if (!read.ok) return { ok: false, reason: `skill \`${ref}\`: ${read.reason}` };
      if (read.text.trim() === '') return { ok: false, reason: `skill \`${ref}\`: ${file} is empty` };
      return { ok: true, text: read.text, origin: file };
    }
    return {
      ok: false,
      reason:
        namespace === null
          ? `skill \`${ref}\` not found: no ${candidates[0]} and no packaged skill of that name`
          : `skill \`${ref}\` not found: Jig has no packaged skill \`${name}\``,
    };
  }

  /** The file's text without front matter; null when it does not exist. */
  private read(file: string): { ok: true; text: string } | { ok: false; reason: string } | null {
    let st;
    try {
      st = statSync(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      return { ok: false, reason: `cannot read ${file}: ${(e as Error).message}` };
    }
    if (!st.isFile()) return { ok: false, reason: `${file} is not a file` };
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return { ok: true, text: hit.text };
    try {
      const text = stripFrontMatter(readFileSync(file, 'utf8'));
      this.cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, text });
      return { ok: true, text };
    } catch (e) {
      return { ok: false, reason: `cannot read ${file}: ${(e as Error).message}` };
    }
  }
}
