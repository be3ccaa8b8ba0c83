import { z } from 'zod';
import {
  ChainTestScript,
  ScriptedAnswer,
  type ChainTestReport,
  type GateDecision,
} from '../../contract/chain-test.js';
import type { Divergence, RecordedSession, Recording } from '../../contract/recording.js';
import { Finding } from '../../contract/result-file.js';

/*
 * A replay (issue 51, docs/chain-tests.md): a recording turned into a chain test script — each
 * agent session's answer, in order per task, none repeating; each gate's decisions in turn — and,
 * once the edited chain has run on it, where it went another way than the recording did.
 */

const Status = ScriptedAnswer.shape.status.unwrap();
const Suggested = ScriptedAnswer.shape.suggested_action.unwrap();

/** What a recorded agent session answers when replayed. */
export function answerOf(s: RecordedSession): ScriptedAnswer {
  const r = s.result ?? {};
  const spend = {
    cost_usd: s.cost_usd ?? 0,
    tokens: {
      input: s.tokens.input,
      output: s.tokens.output,
      cache_read: s.tokens.cache_read,
      cache_write: s.tokens.cache_write,
    },
  };
  if (s.status === 'rate_limited') return { status: 'done', fails: 'rate_limit', ...spend };
  if (s.status === 'infra_error') return { status: 'done', fails: 'auth', ...spend };
  const status = Status.safeParse(r.status);
  // No result file and no clean end: the CLI failed (an API error), and says so again.
  if (s.result === null && s.status !== 'done' && s.status !== 'budget_exceeded')
    return { status: 'done', fails: 'error', ...spend };
  const findings = z.array(z.unknown()).safeParse(r.findings);
  const a: ScriptedAnswer = { status: status.success ? status.data : 'done', ...spend };
  if (findings.success) a.findings = findings.data.flatMap((f) => Finding.safeParse(f).data ?? []);
  for (const k of ['verdict', 'concerns', 'question'] as const) {
    const v = r[k];
    if (typeof v === 'string') a[k] = v;
  }
  const suggested = Suggested.safeParse(r.suggested_action);
  if (suggested.success) a.suggested_action = suggested.data;
  if (s.document !== null) a.document = s.document;
  if (s.files !== null && Object.keys(s.files).length > 0) {
    a.files = s.files;
    a.commit_message = `${s.task}: replayed change`;
  }
  return a;
}

/** The script a replay runs: the recording's answers and decisions, nothing by default. */
export function scriptFromRecording(rec: Recording, timeout_s = 600): ChainTestScript {
  const tasks: Record<string, ScriptedAnswer[]> = {};
  for (const s of rec.sessions) if (s.kind === 'agent') (tasks[s.task] ??= []).push(answerOf(s));
  const gates: Record<string, GateDecision[]> = {};
  for (const g of rec.gates) (gates[g.gate] ??= []).push(g.decision);
  return ChainTestScript.parse({
    title: `Replay of ${rec.item.id}: ${rec.item.title}`,
    tasks,
    strict: true,
    gates,
    timeout_s,
  });
}

/** Every agent task's prompt in a frozen chain, by path (wherever in the chain the task sits). */
export function promptsOf(chain: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (o.kind === 'agent' && typeof o.path === 'string' && typeof o.prompt === 'string')
        out.set(o.path, o.prompt);
      Object.values(o).forEach(walk);
    }
  };
  walk(chain);
  return out;
}

/** A step of a path, as compared: a stop's reason names ids of its own run, so only its kind counts. */
const stepText = (s: { type: string; node: string | null; detail: string }): string =>
  `${s.node ?? '-'} ${s.type === 'work_item_needs_human' ? s.detail.replace(/\): .*$/s, ')') : s.detail}`;

export function divergencesOf(rec: Recording, report: ChainTestReport, replayChain: unknown): Divergence[] {
  const out: Divergence[] = [];
  const recorded = new Map<string, number>();
  for (const s of rec.sessions) if (s.kind === 'agent') recorded.set(s.task, (recorded.get(s.task) ?? 0) + 1);
  const asked = new Map<string, number>();
  // One divergence per task, however many of its sessions went unanswered.
  const unanswered = new Map<string, number[]>();
  for (const s of report.sessions) {
    asked.set(s.task, Math.max(asked.get(s.task) ?? 0, s.attempt));
    if (s.note?.includes('the script has no answer for'))
      unanswered.set(s.task, [...(unanswered.get(s.task) ?? []), s.attempt]);
  }
  for (const [task, sessions] of unanswered)
    out.push({
      kind: 'no_answer',
      task,
      detail: `${task}: the recording answers ${recorded.get(task) ?? 0} session(s); the replay's session(s) ${sessions.join(', ')} had no answer`,
    });
  const before = promptsOf(rec.chain);
  const after = promptsOf(replayChain);
  for (const [task, prompt] of after) {
    const was = before.get(task);
    if (asked.has(task) && was !== undefined && was !== prompt)
      out.push({ kind: 'prompt_changed', task, detail: `${task}: its prompt is not the one recorded` });
  }
  for (const [task, n] of recorded) {
    const m = asked.get(task) ?? 0;
    if (m < n)
      out.push({
        kind: 'unused',
        task,
        detail: `${task}: the recording answers ${n} session(s), the replay asked for ${m}`,
      });
  }
  for (const s of rec.sessions)
    if (s.kind === 'agent' && s.files === null)
      out.push({
        kind: 'not_captured',
        task: s.task,
        detail: `session ${s.attempt} of ${s.task}: what it changed was not recorded; the replay changes nothing`,
      });
  const a = rec.path.map(stepText);
  const b = report.path.map(stepText);
  const at = a.findIndex((x, i) => x !== b[i]);
  const first = at === -1 && b.length > a.length ? a.length : at;
  if (first !== -1)
    out.push({
      kind: 'route',
      task: null,
      detail: `step ${first + 1}: the recording went "${a[first] ?? '(its end)'}", the replay "${b[first] ?? '(its end)'}"`,
    });
  return out;
}
