import { Document, isMap, parseDocument, YAMLMap } from 'yaml';
import { JigError } from '../../contract/errors.js';
import type { PolicyGetAnswer, PolicyPutBody } from '../../contract/policy-route.js';
import { formatProblem } from '../../contract/problems.js';
import type { Store } from '../../store/database.js';
import { runningCount } from '../../store/slots.js';
import { readConfigText } from './config-dir.js';
import type { ConfigState } from './config-state.js';
import type { ConfigFiles, ConfigWriter } from './config-writer.js';
import { assign } from './yaml-edit.js';
import { etagOf, ifMatches } from './etag.js';

type Obj = Record<string, unknown>;
const FILE = 'policy.yaml';
/** What the loader fills in for `default:` when the file leaves a key out. */
const DEFAULT_LOOP = { attempts: 3, wall_clock_s: 3600 };
const DEFAULT_MAX_CONCURRENT = 3;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file as a YAML document, or null when it is missing, does not parse, or is not a mapping. */
function readDoc(text: string | null): Document | null {
  if (text === null) return null;
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return null;
  if (doc.contents !== null && !isMap(doc.contents)) return null;
  return doc;
}

/**
 * `GET`/`PUT /api/policy`: policy.yaml as a settings form. A save merges the body over the file
 * key by key, checks the result as a reload would, writes it atomically and applies it.
 */
export class PolicySettings {
  private readonly configDir: string;

  constructor(
    /** The home's config writer: a save's read, check, write and reload run as one of its operations. */
    private readonly writer: ConfigWriter,
    private readonly config: ConfigState,
    private readonly store: Store,
  ) {
    this.configDir = writer.configDir;
  }

  private activeCount(): Promise<number> {
    return runningCount(this.store.db);
  }

  /**
   * The file as on disk, with what a form needs to send it back: `max_concurrent` as the loaded
   * policy runs it, `active_count`, and `loops`/`default` as the loader reads them when the file
   * leaves them out. A file that does not parse reads as empty (a save replaces it).
   */
  async get(): Promise<{ answer: PolicyGetAnswer; etag: string }> {
    const text = readConfigText(this.configDir, FILE);
    return { answer: await this.answer(text), etag: etagOf(text) };
  }

  private async answer(text: string | null): Promise<PolicyGetAnswer> {
    const doc = readDoc(text);
    const content = (doc?.toJS() ?? {}) as Obj;
    return {
      ...content,
      loops: content.loops ?? {},
      default: isObj(content.default)
        ? { ...DEFAULT_LOOP, ...content.default }
        : (content.default ?? DEFAULT_LOOP),
      max_concurrent: this.config.policy?.max_concurrent ?? DEFAULT_MAX_CONCURRENT,
      active_count: await this.activeCount(),
    };
  }

  /**
   * Saves and applies; answers the saved file's content and its entity tag. Nothing is written
   * when it is refused. `ifMatch` (the `If-Match` header) makes the save conditional on the file
   * being the one the caller read, so two editors cannot overwrite each other unawares; the whole
   * read-check-write is one operation of the home's config writer, so no other save (a draft's
   * publish included) can slip between the check and the write.
   */
  put(body: PolicyPutBody, ifMatch?: string): Promise<{ saved: Obj; etag: string }> {
    return this.writer.run((files) => this.putNow(files, body, ifMatch));
  }

  private putNow(files: ConfigFiles, body: PolicyPutBody, ifMatch?: string): { saved: Obj; etag: string } {
    const current = files.read(FILE);
    if (ifMatch !== undefined && !ifMatches(ifMatch, etagOf(current))) {
      throw new JigError('policy_changed', { sent: ifMatch.trim() }, { etag: etagOf(current) });
    }
    const doc = readDoc(current) ?? new Document({});
    const map: YAMLMap = isMap(doc.contents) ? doc.contents : new YAMLMap(doc.schema);
    doc.contents = map;
    for (const [key, value] of Object.entries(body)) {
      if (key === 'active_count' || value === undefined) continue;
      if (value === null) map.delete(key);
      else assign(doc, map, key, value);
    }
    const text = doc.toString();
    const check = this.config.checkPolicyText(text);
    if (check.problems.length > 0) {
      throw new JigError(
        'policy_invalid',
        { reason: check.problems.map(formatProblem).join('; ') },
        { problems: check.problems },
      );
    }
    if (check.breaks.length > 0) {
      throw new JigError(
        'policy_invalid',
        { reason: `it would break chains: ${check.breaks.map(formatProblem).join('; ')}` },
        { problems: check.breaks },
      );
    }
    files.write(FILE, text);
    const applied = this.config.reloadPolicyOnly();
    if (applied.refused.length > 0) {
      // Only a file changed on disk between the check and the reload gets here.
      const problems = applied.refused.flatMap((r) => r.problems);
      throw new JigError(
        'policy_invalid',
        { reason: `saved, but the reload refused it: ${problems.map(formatProblem).join('; ')}` },
        { problems },
      );
    }
    const saved = parseDocument(text).toJS() as unknown;
    return { saved: isObj(saved) ? saved : {}, etag: etagOf(text) };
  }
}
