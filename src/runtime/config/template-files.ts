import { JigError } from '../../contract/errors.js';
import { formatProblem } from '../../contract/problems.js';
import type { TemplateFileAnswer, TemplateSaved } from '../../contract/template-files.js';
import { readConfigText } from './config-dir.js';
import type { ConfigState } from './config-state.js';
import type { ConfigWriter } from './config-writer.js';
import { etagOf, ifMatches } from './etag.js';

/**
 * library.yaml and chain files read and saved whole (docs/templates.md): a save is checked as a
 * reload would check it — the file's own problems, and any it would bring to the library or another
 * chain — with an ETag so two editors cannot overwrite each other, written atomically and reloaded,
 * the whole as one operation of the home's config writer.
 */
export class TemplateFiles {
  constructor(
    private readonly writer: ConfigWriter,
    private readonly config: ConfigState,
  ) {}

  private static file(chain: string | null): string {
    return chain === null ? 'library.yaml' : `chains/${chain}.yaml`;
  }

  read(chain: string | null): TemplateFileAnswer & { etag: string } {
    const file = TemplateFiles.file(chain);
    const text = readConfigText(this.writer.configDir, file);
    if (text === null && chain !== null) throw new JigError('not_found', { what: `chain ${chain}` });
    return { file, text: text ?? '', etag: etagOf(text) };
  }

  save(
    chain: string | null,
    text: string,
    ifMatch: string | undefined,
  ): Promise<TemplateSaved & { etag: string }> {
    return this.writer.run((files) => {
      const file = TemplateFiles.file(chain);
      const now = files.read(file);
      if (ifMatch !== undefined && !ifMatches(ifMatch, etagOf(now)))
        throw new JigError('template_changed', { file, sent: ifMatch });
      const check = this.config.checkTemplateText(chain, text);
      const refused = check.problems.length > 0 ? check.problems : check.breaks;
      if (refused.length > 0)
        throw new JigError(
          'template_invalid',
          {
            file,
            reason: `${check.problems.length > 0 ? '' : 'it would break chains: '}${refused.map(formatProblem).join('; ')}`,
          },
          { problems: refused },
        );
      files.write(file, text);
      const reload = this.config.reload();
      return { file, reload, etag: etagOf(text) };
    });
  }
}
