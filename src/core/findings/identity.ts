import { Finding } from '../../contract/result-file.js';

/** A finding as Jig keeps it: the reported entry plus its identity and 16-character tag. */
export type TaggedFinding = Finding & {
  tag: string;
  /** The task whose result file (or failure) it came from. */
  task: string;
  /** The workspace member whose run reported it (its file is in that member's repository). */
  member?: string;
  /** True for the finding Jig makes for a task that failed without reporting any. */
  synthetic?: boolean;
};

/**
 * FNV-1a, 64 bits, as 16 hex characters. Written by hand because core/ takes no `node:crypto`;
 * a tag only has to be stable and spread well, not resist an attacker.
 */
export function hash16(text: string): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * prime) & mask;
  }
  return h.toString(16).padStart(16, '0');
}

/**
 * A finding's tag (reference §2.9): `same_as` when the task names a tag it was shown, else a hash
 * of source_plugin, file and message. The line is left out, so a finding that moves is still the same.
 */
export function findingTag(f: Pick<Finding, 'same_as' | 'source_plugin' | 'file' | 'message'>): string {
  if (f.same_as !== undefined && f.same_as !== '') return f.same_as;
  return hash16(`${f.source_plugin ?? ''}\u0000${f.file ?? ''}\u0000${f.message}`);
}

/** A member's finding is told apart from the same one in another member by its file's repository. */
const inMember = <F extends Pick<Finding, 'file'>>(f: F, member: string | undefined): F =>
  member === undefined ? f : { ...f, file: `${member}:${f.file ?? ''}` };

/** Keeps the valid entries of a result file's `findings[]`, tagged; counts the ones dropped. */
export function parseFindings(
  raw: unknown,
  task: string,
  member?: string,
): { findings: TaggedFinding[]; dropped: number } {
  if (!Array.isArray(raw)) return { findings: [], dropped: 0 };
  const findings: TaggedFinding[] = [];
  let dropped = 0;
  for (const entry of raw) {
    const parsed = Finding.safeParse(entry);
    if (!parsed.success) {
      dropped++;
      continue;
    }
    // Which member a finding is in is Jig's to say (the run it came from), never the task's.
    const { member: _claimed, ...data } = parsed.data;
    const tag = data.same_as ? findingTag(data) : findingTag(inMember(data, member));
    findings.push({ ...data, tag, task, ...(member !== undefined ? { member } : {}) });
  }
  return { findings, dropped };
}

/** Lines worth showing from the end of a log: failure markers first, then the last lines. */
export function logTail(text: string, max = 5): string[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const marked = lines.filter((l) => /FAILED|Error:|Traceback|\u2718/.test(l));
  const pick = marked.length > 0 ? marked : lines;
  return pick.slice(-max);
}

/**
 * The one `critical` finding standing for a task that failed without reporting any. Its identity is
 * the task and command (not the log), so the same failure coming back is recognised as the same.
 */
export function syntheticFinding(
  task: string,
  command: string,
  tail: string[],
  member?: string,
): TaggedFinding {
  const f = {
    severity: 'critical' as const,
    message: `${task} failed${member !== undefined ? ` in ${member}` : ''}: ${command}`,
    source_plugin: 'jig',
    file: task,
  };
  const who = member !== undefined ? { member } : {};
  return { ...f, log_tail: tail, tag: findingTag(inMember(f, member)), task, synthetic: true, ...who };
}
