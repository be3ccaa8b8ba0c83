import { JigError } from '../../contract/errors.js';
import { policyPreview } from '../../contract/routes/policy-preview.js';
import { validateConfigSet } from '../../core/config/validate-set.js';
import { policyPreview as previewOf } from '../../core/drafts/settings/policy-preview.js';
import { textsWithDraft } from '../../core/drafts/texts.js';
import { readConfigDir } from '../../runtime/config/config-dir.js';
import type { Instance } from '../../runtime/instance.js';
import { getDraft } from '../../store/drafts.js';
import { routeFile } from '../route-file.js';

/**
 * The policy preview (spec drafts.md, "Reading drafts"): the published files with the policy
 * draft's policy.yaml laid over, checked as one set, then the caps of every scope of one chain.
 */
export const policyPreviewRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(policyPreview, async (req) => {
    const { key } = req.params;
    if (key !== 'policy') {
      throw new JigError('bad_request', {
        reason: `key: the policy draft's key is \`policy\`, not \`${key}\``,
      });
    }
    const chain = req.query.chain;
    if (chain === undefined || chain === '') {
      const message = 'required: the id of the chain to preview';
      throw new JigError(
        'validation_failed',
        { reason: `querystring.chain: ${message}` },
        { issues: [{ field: 'querystring.chain', message }] },
      );
    }
    const draft = await getDraft(inst.store.db, 'policy', 'policy');
    const texts = textsWithDraft(
      readConfigDir(inst.paths.configDir, inst.paths.addonsDir).texts,
      draft?.files ?? {},
    );
    const answer = previewOf(validateConfigSet(texts), chain);
    if (!('refused' in answer)) return answer;
    switch (answer.refused) {
      case 'library_not_loaded':
        throw new JigError('library_not_loaded', { reason: answer.reason });
      case 'chain_unknown':
        throw new JigError('not_found', { what: `chain \`${chain}\`` });
      case 'policy_not_loaded':
        throw new JigError('policy_invalid', { reason: `policy.yaml does not load: ${answer.reason}` });
      case 'chain_unresolved':
        throw new JigError('chain_unresolved', { chain, reason: answer.reason });
    }
  });
});
