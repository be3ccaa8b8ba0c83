import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem, type Problem } from '../../contract/problems.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import { readYamlMapping } from './yaml-file.js';

type Group = 'templates' | 'policy' | 'intake';

interface GroupState {
  /** Why the group's files did not load at the last (re)load, else null. */
  invalid: string | null;
}

function chainFiles(configDir: string): string[] {
  const dir = join(configDir, 'chains');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => `chains/${f}`);
}

/**
 * What configuration is running and what was refused. Reads the library, chains, policy and
 * intake files; a group whose files do not load keeps its running version and is reported.
 */
export class ConfigState {
  private readonly groups: Record<Group, GroupState> = {
    templates: { invalid: null },
    policy: { invalid: null },
    intake: { invalid: null },
  };
  private intakeOffFlag = false;

  constructor(private readonly configDir: string) {}

  private filesOf(group: Group): string[] {
    if (group === 'templates') return ['library.yaml', ...chainFiles(this.configDir)];
    return [`${group}.yaml`];
  }

  private check(group: Group): { loaded: string[]; refused: { file: string; problems: Problem[] }[] } {
    const loaded: string[] = [];
    const refused: { file: string; problems: Problem[] }[] = [];
    for (const file of this.filesOf(group)) {
      const read = readYamlMapping(join(this.configDir, file), file);
      if (read.ok) loaded.push(file);
      else refused.push({ file, problems: read.problems });
    }
    return { loaded, refused };
  }

  /** The first load at start; an intake file that does not load turns schedules off. */
  loadAtStart(): ReloadAnswer {
    const answer = this.reload();
    this.intakeOffFlag = this.groups.intake.invalid !== null;
    return answer;
  }

  reload(): ReloadAnswer {
    const answer: ReloadAnswer = { loaded: [], refused: [] };
    for (const group of ['templates', 'policy', 'intake'] as const) {
      const { loaded, refused } = this.check(group);
      answer.loaded.push(...loaded);
      answer.refused.push(...refused);
      this.groups[group].invalid =
        refused.length === 0 ? null : refused.flatMap((r) => r.problems.map(formatProblem)).join('; ');
      // A good intake file turns schedules back on; a refused reload keeps whatever was running.
      if (group === 'intake' && refused.length === 0) this.intakeOffFlag = false;
    }
    return answer;
  }

  get invalidTemplates(): string | null {
    return this.groups.templates.invalid;
  }
  get invalidPolicy(): string | null {
    return this.groups.policy.invalid;
  }
  get invalidIntake(): string | null {
    return this.groups.intake.invalid;
  }
  get intakeOff(): boolean {
    return this.intakeOffFlag;
  }
  get degraded(): boolean {
    return this.invalidTemplates !== null || this.invalidPolicy !== null || this.invalidIntake !== null;
  }
}
