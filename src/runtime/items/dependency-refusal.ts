import { JigError } from '../../contract/errors.js';
import type { DependencyRefusal } from '../../store/dependencies.js';

/** Why `after` was refused, as the 422 a caller reads: the ids that are no items, or the cycle. */
export function dependencyRefusal(r: DependencyRefusal): JigError {
  if ('unknown' in r)
    return new JigError(
      'dependency_unknown',
      { ids: r.unknown.join(', ') },
      { field: 'after', ids: r.unknown },
    );
  return new JigError('dependency_cycle', { cycle: r.cycle.join(' → ') }, { field: 'after', cycle: r.cycle });
}
