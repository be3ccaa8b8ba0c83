import { z } from 'zod';
import type { ForgeLocation } from '../../core/forge/locate.js';

/** An open issue on a forge, as auto-intake reads it. */
export interface ForgeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  url: string;
}

/**
 * A forge's issues, as auto-intake and its feedback use them: the open issues carrying a label (every
 * page, pull requests left out), a comment, a close. Failures are ForgeError, as the client's.
 */
export interface ForgeIssues {
  readonly location: ForgeLocation;
  labelled(label: string): Promise<ForgeIssue[]>;
  /**
   * The open issues that block this one, as `${project}#${number}` (a blocker in another project
   * keeps its own path). A forge where dependencies are off answers none.
   */
  blockedBy(number: number): Promise<string[]>;
  comment(number: number, body: string): Promise<void>;
  /** Closes the issue as done; closing a closed issue is harmless. */
  close(number: number): Promise<void>;
}

/** One issue as GitHub and Gitea list it: a pull request carries `pull_request` and is left out. */
export const RestIssue = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  labels: z.array(z.union([z.string(), z.object({ name: z.string().nullish() })])).default([]),
  pull_request: z.unknown().optional(),
});

export function fromRest(raw: unknown[]): ForgeIssue[] {
  return z
    .array(RestIssue)
    .parse(raw)
    .filter((i) => i.pull_request === undefined || i.pull_request === null)
    .map((i) => ({
      number: i.number,
      title: i.title,
      body: i.body ?? '',
      url: i.html_url,
      labels: i.labels.flatMap((l) => (typeof l === 'string' ? [l] : l.name ? [l.name] : [])),
    }));
}

/**
 * A blocker's id as auto-intake names issues. Forges match project paths without case, but the ids
 * are compared exactly: a blocker of this project is spelled as the location spells it, or its item
 * would never be found.
 */
export function blockerId(own: string, project: string, number: number): string {
  return `${project.toLowerCase() === own.toLowerCase() ? own : project}#${number}`;
}
