import { createHash } from 'node:crypto';
import type { AddonProblem, AddonReview, AddonReviewBody } from '../../contract/addon-review.js';
import {
  AddonManifest as AddonManifestSchema,
  type AddonsFile,
  type AddonsLock,
} from '../../contract/addons.js';
import { JigError } from '../../contract/errors.js';
import type { Problem } from '../../contract/problems.js';
import type { AddonInput } from '../../core/addons/load.js';
import { reviewAddon, type ReviewSide } from '../../core/addons/review.js';
import { validateConfigSet, type ConfigTexts } from '../../core/config/validate-set.js';
import { addonDigest } from './files.js';
import { brokenBy } from './in-use.js';
import { CollectionError, readCollection, storedSource, type CollectionSnapshot } from './sources.js';
import { own } from '../../core/json/own.js';

/*
 * An add-on version read from its collection and checked against this instance: what a review
 * shows and what an install or update applies. Both compute it the same way, so the `review`
 * digest an operator read proves the install applies exactly that.
 */

export interface Candidate {
  namespace: string;
  addon: string;
  collection: string;
  snapshot: CollectionSnapshot;
  input: AddonInput;
  review: AddonReview;
}

/** A collection, read (and fetched, for git) as addons.yaml says; a read that fails is a 422. */
export async function openCollection(
  file: AddonsFile,
  name: string,
  opts: { cacheDir: string; fetch: boolean; commit?: string | null },
): Promise<CollectionSnapshot> {
  const entry = own(file.collections, name);
  if (!entry)
    throw new JigError('addon_collection_unknown', {
      name,
      known: Object.keys(file.collections).join(', ') || 'none',
    });
  try {
    return await readCollection(storedSource(entry.source), {
      cacheDir: opts.cacheDir,
      ref: entry.ref ?? null,
      fetch: opts.fetch,
      ...(opts.commit ? { commit: opts.commit } : {}),
    });
  } catch (err) {
    if (err instanceof CollectionError)
      throw new JigError('addon_collection_unreadable', { source: entry.source, reason: err.message });
    throw err;
  }
}

const messageOf = (p: Problem): string =>
  p.path ? `${p.path}${p.field ? ` ${p.field}` : ''}: ${p.message}` : p.message;

/**
 * The problems of one add-on in a config set, each named by its file in the add-on's directory;
 * then what it would break in the instance's own files (an update that drops a component a chain
 * of yours extends would refuse that chain on reload, and with it all new work), each named
 * `config/<file>`.
 */
function problemsOf(texts: ConfigTexts, input: AddonInput): AddonProblem[] {
  const others = (texts.addons?.installed ?? []).filter((a) => a.namespace !== input.namespace);
  const next: ConfigTexts = {
    ...texts,
    addons: { version: texts.addons?.version ?? '2.0.0', installed: [...others, input] },
  };
  const set = validateConfigSet(next);
  const prefix = `addons/${input.namespace}/`;
  const mine = (own(set.addons.addons, input.namespace)?.problems ?? []).map((p) => ({
    file: p.file.startsWith(prefix) ? p.file.slice(prefix.length) : p.file,
    line: p.line,
    message: messageOf(p),
  }));
  const breaks = brokenBy(texts, next).map((p) => ({
    file: `config/${p.file}`,
    line: p.line,
    message: `with this version, ${messageOf(p)}`,
  }));
  return [...mine, ...breaks];
}

/** sha256 of a review's body: the commit is left out, so a collection moving on elsewhere is no change. */
export function reviewDigest(body: AddonReviewBody): string {
  const { commit: _commit, ...rest } = body;
  return `sha256:${createHash('sha256').update(JSON.stringify(rest), 'utf8').digest('hex')}`;
}

/**
 * Reads `addon` from the collection and checks it as installed under `namespace`, beside the other
 * installed add-ons: its review, with `installed` (the version there now) to compare with.
 */
export async function candidate(o: {
  texts: ConfigTexts;
  snapshot: CollectionSnapshot;
  collection: string;
  addon: string;
  namespace: string;
  installed: ReviewSide | null;
}): Promise<Candidate> {
  const entry = o.snapshot.index.addons.find((a) => a.name === o.addon);
  const known = o.snapshot.index.addons.map((a) => a.name).join(', ') || 'none';
  if (!entry)
    throw new JigError('addon_not_in_collection', { collection: o.collection, addon: o.addon, known });
  let files;
  try {
    files = await o.snapshot.addonFiles(o.addon);
  } catch (err) {
    if (err instanceof CollectionError)
      throw new JigError('addon_collection_unreadable', { source: o.collection, reason: err.message });
    throw err;
  }
  if (files === null)
    throw new JigError('addon_not_in_collection', {
      collection: o.collection,
      addon: o.addon,
      known: `${known}; its directory ${entry.source} is missing`,
    });
  const digest = addonDigest(files);
  const input: AddonInput = { namespace: o.namespace, digest, files, enabled: true };
  const problems = problemsOf(o.texts, input);
  const manifest = manifestOf(files.manifest);
  if (manifest && manifest.name !== o.addon)
    problems.unshift({
      file: '.jig/addon.json',
      line: null,
      message: `\`name\` is \`${manifest.name}\`, and collection.json lists it as \`${o.addon}\`: they must be equal`,
    });
  const side: ReviewSide | null = manifest ? { manifest, files, digest } : null;
  const reviewed = side
    ? reviewAddon(o.namespace, side, o.installed)
    : {
        namespace: o.namespace,
        action: 'install' as const,
        from: null,
        to: { version: 'unknown', digest },
        reach: { lines: [], added: [], removed: [] },
        content: [],
        unchanged: 0,
      };
  const body: AddonReviewBody = {
    ...reviewed,
    addon: o.addon,
    collection: o.collection,
    commit: o.snapshot.commit,
    problems,
  };
  return {
    namespace: o.namespace,
    addon: o.addon,
    collection: o.collection,
    snapshot: o.snapshot,
    input,
    review: { ...body, review: reviewDigest(body) },
  };
}

/** The manifest when it parses and passes its schema; its problems are reported by the checks. */
function manifestOf(text: string | null): ReviewSide['manifest'] | null {
  if (text === null) return null;
  try {
    const r = AddonManifestSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The lock entry of an installed namespace, or the 404 naming those installed. */
export function pinOf(lock: AddonsLock, namespace: string): AddonsLock['addons'][string] {
  const pin = own(lock.addons, namespace);
  if (!pin)
    throw new JigError('addon_unknown', { namespace, known: Object.keys(lock.addons).join(', ') || 'none' });
  return pin;
}
