import { z } from 'zod';
import { ComponentRef } from './ids.js';

/** One `schedules:` entry. The cron text is checked by the cron dialect's own parser. */
export const ScheduleEntry = z
  .object({
    cron: z.string().min(1).describe('five fields, UTC'),
    repo: z.string().min(1).describe("path of a connected repository, or a workspace's name"),
    members: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('when repo names a workspace: the members to run on (default every member)'),
    chain: ComponentRef.describe('chain id; a schedule never takes a default chain'),
    title: z.string().describe("one line; a blank title takes the description's first line"),
    description: z.string().default(''),
    after: z
      .array(z.string().min(1))
      .max(50)
      .optional()
      .describe('ids of items each filed item comes after: started before they complete, it is blocked'),
  })
  .strict();
export type ScheduleEntry = z.infer<typeof ScheduleEntry>;

const Priority = z.number().int().min(0).max(4);

/**
 * A tracker's own address: https, or plain http on loopback only (a local proxy, a test's mock), so
 * a token is never sent in the clear over a network.
 */
const ApiUrl = z
  .string()
  .url()
  .refine((u) => {
    // `.url()` does not stop the refinement from running on what it refused.
    if (!URL.canParse(u)) return false;
    const url = new URL(u);
    return (
      url.protocol === 'https:' ||
      (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    );
  }, 'an https:// URL (http:// only on loopback)');

const DefaultPriority = Priority.nullable()
  .default(2)
  .describe('the priority of an issue that has none; null skips it as above_priority_ceiling');

const TrackerRepo = z
  .string()
  .min(1)
  .optional()
  .describe("the connected repo its items are filed in (default: intake's only repo)");

/** `issues:` — forge issues carrying a label, read for every polled repo that has a forge. */
export const ForgeIssuesIntake = z
  .object({
    label: z.string().min(1).describe('the label an issue carries for auto-intake to take it'),
    priority_labels: z
      .record(z.string().min(1), Priority)
      .default({})
      .describe('label -> priority 0-4 (P0: 0); the most urgent label an issue carries counts'),
    epic_label: z.string().min(1).default('epic').describe('issues with this label are skipped as epic'),
    default_priority: DefaultPriority,
  })
  .strict();
export type ForgeIssuesIntake = z.infer<typeof ForgeIssuesIntake>;

/** `linear:` — a Linear team's issues carrying a label, not yet started; `LINEAR_API_KEY`. */
export const LinearIntake = z
  .object({
    team: z.string().min(1).describe("the team's key (ENG)"),
    label: z.string().min(1).describe('the label an issue carries for auto-intake to take it'),
    repo: TrackerRepo,
    default_priority: DefaultPriority.describe("for Linear's 'No priority'; null skips those"),
    api_url: ApiUrl.default('https://api.linear.app/graphql'),
  })
  .strict();
export type LinearIntake = z.infer<typeof LinearIntake>;

/** `jira:` — a Jira project's issues to do (or as `jql` narrows); `JIRA_API_TOKEN`. */
export const JiraIntake = z
  .object({
    site: ApiUrl.describe('https://acme.atlassian.net, or a Jira Data Center base URL'),
    project: z.string().min(1).describe('the project key (SHOP)'),
    jql: z
      .string()
      .min(1)
      .optional()
      .describe('narrows the project\'s issues; default statusCategory = "To Do"'),
    email: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Jira Cloud: the account the token belongs to (or JIRA_EMAIL); without one the token is a bearer PAT',
      ),
    repo: TrackerRepo,
    priorities: z
      .record(z.string().min(1), Priority)
      .default({})
      .describe('priority name -> 0-4, over the defaults (Highest 0 … Lowest 4, Blocker 0 … Trivial 4)'),
    default_priority: DefaultPriority,
  })
  .strict();
export type JiraIntake = z.infer<typeof JiraIntake>;

/** `intake.yaml`: auto-intake from beads, forge issues, Linear and Jira, and cron schedules. */
export const IntakeFile = z
  .object({
    enabled: z.boolean().default(false).describe('auto-intake on or off; schedules run either way'),
    interval_s: z.number().int().min(30).default(300),
    priority_ceiling: z.number().int().min(0).max(4).default(2),
    repos: z
      .array(z.string().min(1))
      .default([])
      .describe('paths auto-intake polls; empty = every enabled repo'),
    schedules: z.array(ScheduleEntry).default([]),
    issues: ForgeIssuesIntake.optional().describe('forge issues by label; off when absent'),
    linear: LinearIntake.optional().describe('Linear issues by team and label; off when absent'),
    jira: JiraIntake.optional().describe('Jira issues by project; off when absent'),
    max_concurrent: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('moved to policy.yaml; still read here (with a warning) when policy.yaml has none'),
  })
  .strict();
export type IntakeFile = z.infer<typeof IntakeFile>;
