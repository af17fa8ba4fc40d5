/**
 * The purchase order the engine gives a transaction sent without one: `PO` and its id in ten digits,
 * unique because ids are. A caller may send a purchase order of its own, but not one of this form on
 * a new charge, which could be one the engine gives another transaction later.
 */

const ASSIGNED = /^PO\d{10}$/;

export function assignedPurchaseOrder(transactionId: number): string {
  return `PO${String(transactionId).padStart(10, '0')}`;
}

export function isAssignedForm(purchaseOrder: string): boolean {
  return ASSIGNED.test(purchaseOrder);
}
