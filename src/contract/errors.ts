/**
 * The one error catalogue. Every error Jig answers over HTTP has a stable `code` here, an HTTP status
 * and a message template; `docs/errors.md` lists every code and a test checks both ways.
 * Wire shape: `{detail, code, ...extra}` (`detail` is the spec's key).
 */
export const errorCatalogue = {
  route_not_found: { status: 404, template: 'no route {method} {path}' },
  not_found: { status: 404, template: '{what} not found' },
  invalid_json: { status: 400, template: 'the request body is not valid JSON: {reason}' },
  bad_request: { status: 400, template: '{reason}' },
  validation_failed: { status: 422, template: '{reason}' },
  unsupported_media_type: { status: 415, template: 'send the body as application/json (got {type})' },
  payload_too_large: { status: 413, template: 'the request body is larger than {limit} bytes' },
  headers_too_large: { status: 431, template: 'the request line and headers are larger than {limit} bytes' },
  request_timeout: { status: 408, template: 'the request did not arrive in time; the connection is closed' },
  method_not_allowed: { status: 405, template: '{method} is not allowed on {path}' },
  config_refused: { status: 422, template: 'a configuration file was refused: {files}' },
  not_supervised: { status: 409, template: '{reason}' },
  policy_invalid: { status: 422, template: '{reason}' },
  policy_changed: {
    status: 409,
    template:
      'policy.yaml changed since it was read (If-Match {sent}); read it again (GET /api/policy) and reapply your change',
  },
  host_not_allowed: { status: 403, template: 'unexpected Host for a server bound to {bind}' },
  cross_site_write: { status: 403, template: 'cross-site write refused: {reason}' },
  remote_needs_password: {
    status: 403,
    template:
      "remote callers are refused while no password is set; set one with `jig admin password` on the server's machine",
  },
  login_required: { status: 401, template: '{reason}' },
  wrong_password: { status: 401, template: 'the password is not correct' },
  password_not_set: {
    status: 409,
    template: "no password is set; set one with `jig admin password` on the server's machine",
  },
  stream_limit: {
    status: 503,
    template:
      'no more live event streams can open: {why}; close one (a board tab, a watch) or try again later',
  },
  too_many_attempts: {
    status: 429,
    template: 'too many failed logins from this address; try again in {seconds} s',
  },
  repo_not_git: { status: 422, template: '{path} is not a git repository' },
  repo_path_missing: { status: 422, template: '{path} does not exist' },
  repo_no_commit: { status: 422, template: '{path} has no commit yet; commit something first' },
  repo_not_connected: {
    status: 422,
    template: 'repo {path} is not connected; connect it with `jig repo connect`',
  },
  repo_unknown: { status: 404, template: 'no connected repo at {path}' },
  repo_gone: { status: 422, template: 'repo {path} is connected but no longer exists on disk' },
  repo_disabled: { status: 422, template: 'repo {path} is disabled: {why}' },
  repo_has_open_items: {
    status: 409,
    template:
      '{count} work item(s) not yet done, cancelled or abandoned use {path}: {items}; end them first (jig item cancel ID)',
  },
  repo_steering_invalid: {
    status: 422,
    template: 'repo {path} names steering the library does not define: {names}',
  },
  repos_file_invalid: { status: 422, template: 'repos.yaml does not load: {reason}' },
  notify_invalid: { status: 422, template: 'notify.yaml would not load: {reason}' },
  settings_invalid: { status: 422, template: '{file} would not load: {reason}' },
  template_invalid: { status: 422, template: '{file} was not saved: {reason}' },
  template_changed: {
    status: 409,
    template: '{file} changed since it was read (If-Match {sent}); read it again and reapply your change',
  },
  notify_refused: {
    status: 409,
    template:
      'notify.yaml does not load, so no notification is sent: {reason}; fix the file (Settings › Notifications)',
  },
  notify_not_configured: {
    status: 409,
    template: 'no notification URL is set: set url in notify.yaml (or PUT /api/notify) first',
  },
  intake_disabled: {
    status: 409,
    template: 'auto-intake is off: set enabled: true in intake.yaml (or Settings › Auto-intake) first',
  },
  repo_file_unsafe: {
    status: 422,
    template: '{file} in {path} {reason}; Jig reads only regular files inside the repository',
  },
  invalid_title: { status: 422, template: '{message}' },
  chain_unknown: {
    status: 422,
    template: 'chain {chain} names no chain in the library (chains: {known}){hint}',
  },
  chain_conflict: {
    status: 422,
    template: 'chain and chain_template name different chains ({chain} and {chain_template}); send one',
  },
  chain_unresolved: { status: 422, template: 'chain {chain} does not resolve: {reason}' },
  new_work_refused: { status: 503, template: 'all new work is refused while {what} does not load: {reason}' },
  intake_failed: { status: 502, template: 'intake failed: {reason}' },
  peer_unreachable: {
    status: 502,
    template:
      '{worker}, which walks this item, did not answer ({reason}); the move may have been made: read the item before trying again',
  },
  idempotency_key_reused: {
    status: 422,
    template:
      'Idempotency-Key {key} was used within the last 24 hours for a different request; send a new key for a new item',
  },
  item_not_found: { status: 404, template: 'no work item {id}' },
  chain_test_running: {
    status: 409,
    template: 'a chain test is running ({chain}); one runs at a time: try again when it ends',
  },
  chain_test_unavailable: { status: 503, template: 'the chain test could not run: {reason}' },
  harness_not_testable: {
    status: 409,
    template: 'harness {harness} cannot be tested: {reason}',
  },
  escalation_spend_cap: {
    status: 409,
    template: 'the item was stopped by a spend cap ({reason}); raise that cap before escalating',
  },
  item_wrong_status: { status: 409, template: 'the item is {state}; {rule}' },
  item_changed: {
    status: 409,
    template: 'the item is {state} now; it changed while this move was decided',
  },
  item_at_gate: { status: 409, template: 'the item waits at gate {gate}: approve or reject it' },
  reject_nowhere: {
    status: 409,
    template:
      'there is nothing before gate {gate} to send the item back to (no exec node runs before it); cancel the item or approve it',
  },
  gate_not_waiting: {
    status: 409,
    template: 'gate {gate} is not waiting for a decision (the item is {state}){answered}{pending}',
  },
  gate_unknown: { status: 404, template: "{gate} is no gate of this item's chain{pending}" },
  node_not_skippable: { status: 409, template: 'node {node} is not skippable' },
  nothing_to_retry: { status: 409, template: '{reason}' },
  item_not_started: { status: 409, template: 'the item has no worktree yet; start it first' },
  dependency_cycle: {
    status: 422,
    template: 'after: coming after these would close a cycle: {cycle}',
  },
  dependency_unknown: { status: 422, template: 'after: no item {ids} on this instance' },
  dependency_ended: {
    status: 409,
    template: 'it comes after {dependency} ({title}), which was {state} and will never complete: {how}',
  },
  not_a_dependency: {
    status: 409,
    template: 'the item does not come after {dependency}; it comes after: {dependencies}',
  },
  chain_frozen: {
    status: 409,
    template: 'the item has started; its chain changes through an item draft',
  },
  escalation_running: { status: 409, template: 'an escalation turn is already running for this item' },
  escalation_not_running: { status: 409, template: 'no escalation turn is running for this item' },
  escalation_refused: { status: 409, template: '{reason}' },
  attachment_unreadable: { status: 422, template: '{kind} attachment: {reason}' },
  attachment_missing: { status: 404, template: 'work item {id} has no {kind} attachment' },
  invalid_model_override: { status: 422, template: '{field}: {value} is not a model id' },
  artifact_required: {
    status: 422,
    template: 'gate {gate} needs its {kind} document, readable, before it can be approved{why}',
  },
  must_fix_open: {
    status: 409,
    template:
      '{count} must-fix review thread(s) still open ({threads}): resolve them, or have them fixed, before approving',
  },
  worker_refused: {
    status: 403,
    template: 'a worker may not {what} on its own work item ({id}); a person does that',
  },
  no_fix_target: { status: 409, template: '{reason}' },
  thread_not_found: { status: 404, template: 'no review thread {thread} on work item {id}' },
  ask_not_worker: {
    status: 403,
    template: 'only a worker of work item {id} asks for a permission (its client sends x-jig-work-item)',
  },
  ask_decided: { status: 409, template: 'permission ask {ask} is already {state}' },
  no_merge_request: {
    status: 409,
    template: 'work item {id} has no merge request yet (a forge task opens it: mr.open_draft)',
  },
  forge_unavailable: { status: 409, template: 'the forge of {repo} cannot be used: {reason}' },
  forge_refused: { status: 502, template: '{reason}' },
  mr_not_closed: {
    status: 409,
    template:
      'work item {id} is not stopped on a merge request closed without merging (it is {state}); reopen-mr is for that stop',
  },
  worker_own_item: {
    status: 403,
    template: "a worker cannot {what} on its own work item {id}: that is a person's decision",
  },
  local_only: {
    status: 403,
    template:
      "{what} starts a program on the server's machine: only a caller on that machine (loopback) may ask",
  },
  document_changed: {
    status: 409,
    template:
      'the {kind} document of gate {gate} changed since you read it (now {digest}); read it again, then approve',
  },
  budget_not_raised: {
    status: 422,
    template: 'the new cap ({cap_usd} USD) must be above what the item has spent ({spent_usd} USD)',
  },
  draft_yaml_error: {
    status: 409,
    template: 'fix the YAML first: {file} line {line}: {message}',
  },
  draft_op_refused: { status: 422, template: '{reason}' },
  draft_nothing_to_undo: { status: 409, template: 'nothing to undo in the {area} draft {key}' },
  draft_stale: { status: 409, template: 'published since this draft began: {files}' },
  draft_has_problems: { status: 422, template: '{reason}' },
  library_not_loaded: { status: 503, template: 'the template library does not load: {reason}' },
  draft_apply_failed: {
    status: 500,
    template:
      'the files were written but applying them failed: {reason}; the draft is kept, publish again to retry',
  },
  item_draft_own_item: {
    status: 403,
    template: "a worker may not read or change its own item's draft (work item {id})",
  },
  item_draft_not_found: { status: 404, template: 'work item {id} has no draft' },
  item_draft_no_chain: {
    status: 409,
    template: 'work item {id} has not started, so it has no chain of its own yet; {rule}',
  },
  item_draft_passed: {
    status: 409,
    template:
      'the item has gone past {what}: nothing was applied; drop them or move them after the current node ({node})',
  },
  item_draft_problems: { status: 422, template: 'nothing was applied: {reason}' },
  internal: { status: 500, template: 'internal error: {reason}' },
  update_feed_failed: { status: 502, template: 'the release feed {feed} did not answer: {reason}' },
  addon_unknown: {
    status: 404,
    template: 'no add-on is installed as {namespace} (installed: {known}); `jig admin addon list` lists them',
  },
  addon_collection_unknown: {
    status: 404,
    template:
      'no collection named {name} (collections: {known}); add one with `jig admin addon collection add`',
  },
  addon_collection_exists: {
    status: 409,
    template: 'a collection named {name} is already added, from {source}',
  },
  addon_collection_unreadable: { status: 422, template: 'the collection {source} cannot be read: {reason}' },
  addon_collection_in_use: {
    status: 409,
    template: 'collection {name} still has installed add-ons ({namespaces}); uninstall them first',
  },
  addon_not_in_collection: {
    status: 404,
    template: 'collection {collection} lists no add-on {addon} (it lists: {known})',
  },
  addon_namespace_taken: {
    status: 409,
    template: 'the namespace {namespace} is taken by {addon}@{collection}; install under another with --as',
  },
  addon_invalid: { status: 422, template: 'add-on {addon} cannot be installed here: {problems}' },
  addon_review_stale: {
    status: 409,
    template: 'add-on {addon} changed since the review that was read ({reason}); read the review again',
  },
  addon_no_update: {
    status: 409,
    template: 'add-on {namespace} is at version {version}, as its collection has it: nothing to update',
  },
  addon_in_use: { status: 409, template: 'add-on {namespace} is still used by your configuration: {uses}' },
} as const satisfies Record<string, { status: number; template: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorBody {
  detail: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

function fill(template: string, params: Partial<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`));
}

/** The `{name}`s of a template, as a union of names. */
type Placeholders<T extends string> = T extends `${string}{${infer K}}${infer Rest}`
  ? K | Placeholders<Rest>
  : never;

/** The values a code's message template needs: one per `{name}` in it, checked where it is thrown. */
export type ErrorParams<C extends ErrorCode> = {
  [K in Placeholders<(typeof errorCatalogue)[C]['template']>]: string | number;
};

type ErrorArgs<C extends ErrorCode> = [Placeholders<(typeof errorCatalogue)[C]['template']>] extends [never]
  ? [params?: Record<string, never>, extra?: Record<string, unknown>, options?: { cause?: unknown }]
  : [params: ErrorParams<C>, extra?: Record<string, unknown>, options?: { cause?: unknown }];

/** The same arguments as the constructor reads them, whatever the code. */
type LooseArgs = [
  params?: Partial<Record<string, string | number>>,
  extra?: Record<string, unknown>,
  options?: { cause?: unknown },
];

/** A typed error a service throws; the server's one error handler maps it to status + body. */
export class JigError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly status: number;
  readonly extra: Record<string, unknown>;

  /**
   * `params` fill the code's template (the compiler asks for each `{name}` in it); `extra` goes
   * into the body beside `detail` and `code`; `cause` is what went wrong underneath, for the server
   * log (never sent to the caller).
   */
  constructor(code: C, ...args: ErrorArgs<C>) {
    const entry = errorCatalogue[code];
    const [params = {}, extra = {}, options = {}]: LooseArgs = args;
    super(fill(entry.template, params), options);
    this.name = 'JigError';
    this.code = code;
    this.status = entry.status;
    this.extra = extra;
  }

  toBody(): ErrorBody {
    return { ...this.extra, detail: this.message, code: this.code };
  }
}

/** `instanceof JigError`, typed as a JigError of any code (a bare `instanceof` leaves the code `any`). */
export function isJigError(e: unknown): e is JigError {
  return e instanceof JigError;
}
