import { z } from 'zod';

/** Ids and names: a lowercase letter, then lowercase letters, digits, `_` or `-` (no `.`, so paths split cleanly). */
export const IDENTIFIER_PATTERN = /^[a-z][a-z0-9_-]*$/;
export const IDENTIFIER_MAX = 64;

/**
 * Path segments the chain model uses for its own containers. An id equal to one would make two
 * components share a canonical path, so ids may not use them.
 */
export const RESERVED_SEGMENTS = [
  'main',
  'on_failure',
  'fix_loop',
  'judge',
  'escalation',
  'on_base_changed',
  'on_conflict',
] as const;

export const Identifier = z
  .string()
  .max(IDENTIFIER_MAX, { error: `is longer than ${IDENTIFIER_MAX} characters` })
  .regex(IDENTIFIER_PATTERN, {
    error: 'is not an identifier: start with a lowercase letter, then lowercase letters, digits, `_` or `-`',
  })
  .describe('identifier: a lowercase letter, then lowercase letters, digits, `_` or `-` (at most 64)');
export type Identifier = z.infer<typeof Identifier>;

/** A library component or chain name: `name`, or `<namespace>:<name>` for an add-on's. */
export const COMPONENT_REF_PATTERN = /^([a-z][a-z0-9_-]*:)?[a-z][a-z0-9_-]*$/;
export const ComponentRef = z
  .string()
  .regex(COMPONENT_REF_PATTERN, {
    error: 'is not a component name: `name` or `<namespace>:<name>`, each an identifier',
  })
  .describe('a library name, or `<namespace>:<name>` for an add-on component');
export type ComponentRef = z.infer<typeof ComponentRef>;

/** `30s`, `5m`, `1h`, `7d`: polling intervals and gate timeouts. */
export const Duration = z
  .string()
  .regex(/^[1-9][0-9]*(s|m|h|d)$/, { error: 'is not a duration such as `30s`, `5m`, `1h` or `7d`' })
  .describe('a duration: a whole number followed by s, m, h or d');
export type Duration = z.infer<typeof Duration>;

/** A Lucide icon name in kebab-case. An unknown name is not checked here: the board falls back. */
export const IconName = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: 'is not an icon name (kebab-case, e.g. `git-merge`)' })
  .describe('Lucide icon name, kebab-case');
