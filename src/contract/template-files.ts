import { z } from 'zod';
import { ReloadAnswer } from './reload.js';

/** A template file as `GET /api/templates/library/file` and `GET /api/templates/chains/:id/file` answer it. */
export const TemplateFileAnswer = z.object({
  file: z.string().describe('library.yaml or chains/<id>.yaml'),
  text: z.string().describe("the file's text, comments and all ('' for a library not written yet)"),
});
export type TemplateFileAnswer = z.infer<typeof TemplateFileAnswer>;

/** The whole new text of the file. */
export const TemplateFileBody = z.object({ text: z.string().max(2_000_000) }).strict();

export const TemplateSaved = z.object({
  file: z.string(),
  reload: ReloadAnswer.describe('what the reload after the save loaded and refused'),
});
export type TemplateSaved = z.infer<typeof TemplateSaved>;
