import { JigError } from '../../contract/errors.js';
import { validateConfigSet } from '../../core/config/validate-set.js';
import { policyPreview as previewOf, type PolicyPreview } from '../../core/drafts/settings/policy-preview.js';
import { textsWithDraft } from '../../core/drafts/texts.js';
import type { Store } from '../../store/database.js';
import { getDraft } from '../../store/drafts.js';
import { readConfigDir } from '../config/config-dir.js';

/**
 * The policy preview (spec drafts.md, "Reading drafts"): the published files with the policy
 * draft's policy.yaml laid over, checked as one set, then the caps of every scope of one chain.
 */
export class PolicyPreviewService {
  constructor(private readonly d: { store: Store; configDir: string; addonsDir: string | null }) {}

  async preview(key: string, chain: string | undefined): Promise<PolicyPreview> {
    if (key !== 'policy') {
      throw new JigError('bad_request', {
        reason: `key: the policy draft's key is \`policy\`, not \`${key}\``,
      });
    }
    if (chain === undefined || chain === '') {
      const message = 'required: the id of the chain to preview';
      throw new JigError(
        'validation_failed',
        { reason: `querystring.chain: ${message}` },
        { issues: [{ field: 'querystring.chain', message }] },
      );
    }
    const draft = await getDraft(this.d.store.db, 'policy', 'policy');
    const texts = textsWithDraft(readConfigDir(this.d.configDir, this.d.addonsDir).texts, draft?.files ?? {});
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
  }
}
