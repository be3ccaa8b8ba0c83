/*
 * A chain file as a list of components at their canonical paths (core/chain/paths.ts names them:
 * `node.step.task`, `node.main.task` for the tasks shorthand, `node.on_failure.…`,
 * `node.fix_loop.judge`, `node.escalation.<id>`, `node.on_base_changed.on_conflict.…`,
 * `gate.auto_review`), each with its own fields (children left out) and its place among its
 * siblings, so two versions of a file can be compared component by component.
 */

type Obj = Record<string, unknown>;

export interface Component {
  path: string;
  /** node, step, task, or the handler it is (on_failure, fix_loop, on_base_changed). */
  kind: string;
  /** Its own keys, children left out. */
  fields: Obj;
  /** The path of the list it sits in, and its index there (a move changes the index). */
  list: string;
  index: number;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const idOf = (v: unknown, fallback: string): string =>
  isObj(v) && typeof v.id === 'string' && v.id !== '' ? v.id : fallback;
const without = (v: Obj, keys: readonly string[]): Obj =>
  Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k)));

class Walker {
  readonly out: Component[] = [];

  private emit(
    comp: string[],
    kind: string,
    v: unknown,
    drop: readonly string[],
    place: [string, number],
  ): void {
    if (!isObj(v)) return;
    this.out.push({ path: comp.join('.'), kind, fields: without(v, drop), list: place[0], index: place[1] });
  }

  task(comp: string[], v: unknown, place: [string, number]): void {
    this.emit(comp, 'task', v, ['on_failure'], place);
    if (isObj(v) && v.on_failure !== undefined)
      this.plan([...comp, 'on_failure'], 'on_failure', v.on_failure);
  }

  step(comp: string[], v: unknown, place: [string, number]): void {
    this.emit(comp, 'step', v, ['tasks', 'on_failure'], place);
    if (!isObj(v)) return;
    const at = `${comp.join('.')}.tasks`;
    list(v.tasks).forEach((t, i) => this.task([...comp, idOf(t, `#${i}`)], t, [at, i]));
    if (v.on_failure !== undefined) this.plan([...comp, 'on_failure'], 'on_failure', v.on_failure);
  }

  /** The tasks shorthand (`main`) or steps of a node or plan. */
  children(comp: string[], v: Obj): void {
    const tasks = `${comp.join('.')}.main.tasks`;
    list(v.tasks).forEach((t, i) => this.task([...comp, 'main', idOf(t, `#${i}`)], t, [tasks, i]));
    const steps = `${comp.join('.')}.steps`;
    list(v.steps).forEach((s, i) => this.step([...comp, idOf(s, `#${i}`)], s, [steps, i]));
  }

  plan(comp: string[], kind: string, v: unknown): void {
    this.emit(comp, kind, v, ['tasks', 'steps', 'judge'], [comp.join('.'), 0]);
    if (!isObj(v)) return;
    this.children(comp, v);
    if (v.judge !== undefined) this.task([...comp, 'judge'], v.judge, [`${comp.join('.')}.judge`, 0]);
  }

  node(v: unknown, index: number): void {
    const comp = [idOf(v, `#${index}`)];
    const handlers = ['on_failure', 'fix_loop', 'escalation', 'on_base_changed', 'auto_review'] as const;
    this.emit(comp, 'node', v, ['tasks', 'steps', ...handlers], ['nodes', index]);
    if (!isObj(v)) return;
    this.children(comp, v);
    if (v.on_failure !== undefined) this.plan([...comp, 'on_failure'], 'on_failure', v.on_failure);
    if (v.fix_loop !== undefined) this.plan([...comp, 'fix_loop'], 'fix_loop', v.fix_loop);
    if (v.escalation !== undefined) {
      const c = [...comp, 'escalation', idOf(v.escalation, 'escalate')];
      this.task(c, v.escalation, [c.join('.'), 0]);
    }
    if (isObj(v.on_base_changed)) {
      const c = [...comp, 'on_base_changed'];
      this.emit(c, 'on_base_changed', v.on_base_changed, ['on_conflict'], [c.join('.'), 0]);
      if (v.on_base_changed.on_conflict !== undefined) {
        this.plan([...c, 'on_conflict'], 'on_conflict', v.on_base_changed.on_conflict);
      }
    }
    if (v.auto_review !== undefined) {
      const c = [...comp, 'auto_review'];
      this.task(c, v.auto_review, [c.join('.'), 0]);
    }
  }
}

/** The components of a chain file as written (a file that is not a mapping has none). */
export function chainComponents(file: unknown): Component[] {
  const w = new Walker();
  if (isObj(file)) list(file.nodes).forEach((n, i) => w.node(n, i));
  return w.out;
}

/** The chain's own keys (everything but its nodes): `description`, `policy`, … */
export function chainKeys(file: unknown): Obj {
  return isObj(file) ? without(file, ['nodes']) : {};
}
