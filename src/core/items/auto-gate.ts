/**
 * Whether a gate's reviewer agent (`auto_review`) decides before a person: as the item was filed
 * (`auto_gate`), else on for what a person files (or duplicates) and off for schedules, triggers
 * and agents' items, which wait for a person.
 */
export function autoGateOn(item: { auto_gate: boolean | null; source: string }): boolean {
  return item.auto_gate ?? (item.source === 'human' || item.source === 'duplicate');
}
