import type { LibrarySection } from '../../contract/config/library.js';
import type { Problem } from '../../contract/problems.js';
import { didYouMean } from '../config/suggest.js';
import { entry, scalar, type AEntry, type AMap, type ANode } from '../config/tree.js';
import type { LibraryIndex } from './library-index.js';
import { dropNulls, mergeMaps } from './merge.js';

type Section = Exclude<LibrarySection, 'steering'>;
const WORD: Record<Section, string> = { nodes: 'node', steps: 'step', tasks: 'task' };

interface Memo {
  node: AMap | null;
  problems: Problem[];
}

/**
 * Expands `extends` in chain and library components. One parent of the same kind; maps merge,
 * lists replace; cycles and unknown or wrong-kind parents are problems at the `extends` value.
 * Library components are resolved once and shared (their problems are repeated to every user,
 * the aggregate de-duplicates them).
 */
export class Resolver {
  private readonly memo = new Map<string, Memo>();
  private readonly stack: string[] = [];
  private readonly done = new WeakSet<AMap>();

  constructor(private readonly library: LibraryIndex) {}

  /** A library component with its own `extends` expanded, or null when it cannot resolve. */
  libraryComponent(section: Section, name: string, out: Problem[]): AMap | null {
    const key = `${section}.${name}`;
    const hit = this.memo.get(key);
    if (hit) {
      out.push(...hit.problems);
      return hit.node;
    }
    const raw = this.library.lookup(section, name);
    if (!raw) return null;
    const problems: Problem[] = [];
    this.stack.push(key);
    const node = this.component(section, raw, key, problems);
    this.stack.pop();
    const memo = { node: problems.length ? null : node, problems };
    this.memo.set(key, memo);
    out.push(...problems);
    return memo.node;
  }

  /** Expands one component and everything inside it. `path` names it in problems. */
  component(section: Section, node: AMap, path: string, out: Problem[]): AMap {
    if (this.done.has(node)) return node;
    const ext = entry(node, 'extends');
    let merged = dropNulls(node);
    const name = scalar(ext?.value);
    if (ext && typeof name === 'string') {
      const parent = this.parent(section, name, ext, path, out);
      if (parent) {
        this.checkKind(section, parent, node, path, out);
        merged = mergeMaps(parent, node);
      }
    }
    const result = this.children(section, merged, path, out);
    this.done.add(result);
    return result;
  }

  private parent(section: Section, name: string, ext: AEntry, path: string, out: Problem[]): AMap | null {
    const key = `${section}.${name}`;
    const at = { file: ext.value.origin.file, ...ext.value.pos };
    if (this.stack.includes(key)) {
      const cycle = [...this.stack.slice(this.stack.indexOf(key)), key].join(' → ');
      out.push({ path, field: 'extends', message: `extends cycle: ${cycle}`, ...at });
      return null;
    }
    if (!this.library.lookup(section, name)) {
      const other = (['nodes', 'steps', 'tasks'] as const).find(
        (s) => s !== section && this.library.lookup(s, name),
      );
      const message = other
        ? `extends \`${name}\`, a library ${WORD[other]}: a ${WORD[section]} extends a library ${WORD[section]}`
        : `extends \`${name}\`: no library ${WORD[section]} has that name${didYouMean(name, this.library.names[section])}`;
      out.push({ path, field: 'extends', message, ...at });
      return null;
    }
    const before = out.length;
    const parent = this.libraryComponent(section, name, out);
    if (!parent && out.length === before) {
      out.push({ path, field: 'extends', message: `extends \`${name}\`, which does not resolve`, ...at });
    }
    return parent;
  }

  /** A node or task extends one parent of its own kind (a gate cannot extend an exec node). */
  private checkKind(section: Section, parent: AMap, node: AMap, path: string, out: Problem[]): void {
    if (section === 'steps') return;
    const own = entry(node, 'kind');
    const mine = scalar(own?.value);
    const theirs = scalar(entry(parent, 'kind')?.value) ?? (section === 'nodes' ? 'exec' : undefined);
    if (own && typeof mine === 'string' && typeof theirs === 'string' && mine !== theirs) {
      const name = String(scalar(entry(node, 'extends')?.value));
      out.push({
        path,
        field: 'kind',
        message: `kind \`${mine}\` does not match \`${name}\`, ${theirs === 'exec' || theirs === 'agent' ? 'an' : 'a'} ${theirs} ${WORD[section]}: a component extends one parent of its own kind`,
        file: own.value.origin.file,
        ...own.value.pos,
      });
    }
  }

  private list(
    section: Section,
    node: ANode | undefined,
    path: (item: AMap, i: number) => string,
    out: Problem[],
  ): ANode | undefined {
    if (node?.t !== 'seq') return node;
    return {
      ...node,
      items: node.items.map((it, i) => (it.t === 'map' ? this.component(section, it, path(it, i), out) : it)),
    };
  }

  private plan(node: ANode | undefined, path: string, out: Problem[]): ANode | undefined {
    if (node?.t !== 'map') return node;
    return this.replace(node, {
      tasks: (v) => this.list('tasks', v, (t, i) => `${path}.main.${idOf(t, i)}`, out),
      steps: (v) => this.list('steps', v, (s, i) => `${path}.${idOf(s, i)}`, out),
      judge: (v) => (v.t === 'map' ? this.component('tasks', v, `${path}.judge`, out) : v),
    });
  }

  private children(section: Section, m: AMap, path: string, out: Problem[]): AMap {
    const plan = (v: ANode) => this.plan(v, `${path}.${'on_failure'}`, out) ?? v;
    if (section === 'tasks') return this.replace(m, { on_failure: plan });
    if (section === 'steps') {
      return this.replace(m, {
        tasks: (v) => this.list('tasks', v, (t, i) => `${path}.${idOf(t, i)}`, out) ?? v,
        on_failure: plan,
      });
    }
    return this.replace(m, {
      tasks: (v) => this.list('tasks', v, (t, i) => `${path}.main.${idOf(t, i)}`, out) ?? v,
      steps: (v) => this.list('steps', v, (s, i) => `${path}.${idOf(s, i)}`, out) ?? v,
      on_failure: plan,
      fix_loop: (v) => this.plan(v, `${path}.fix_loop`, out) ?? v,
      escalation: (v) =>
        v.t === 'map' ? this.component('tasks', v, `${path}.escalation.${idOf(v, 'escalate')}`, out) : v,
      on_base_changed: (v) =>
        v.t === 'map'
          ? this.replace(v, {
              on_conflict: (c) => this.plan(c, `${path}.on_base_changed.on_conflict`, out) ?? c,
            })
          : v,
      auto_review: (v) => (v.t === 'map' ? this.component('tasks', v, `${path}.auto_review`, out) : v),
    });
  }

  private replace(m: AMap, fns: Record<string, (v: ANode) => ANode | undefined>): AMap {
    return {
      ...m,
      entries: m.entries.map((e) => {
        // A key of the file (`toString:` too) must not find Object.prototype's method.
        const fn = Object.hasOwn(fns, e.key) ? fns[e.key] : undefined;
        return fn ? { ...e, value: fn(e.value) ?? e.value } : e;
      }),
    };
  }
}

function idOf(m: AMap, fallback: number | string): string {
  const id = scalar(entry(m, 'id')?.value);
  return typeof id === 'string' ? id : typeof fallback === 'number' ? `#${fallback}` : fallback;
}
