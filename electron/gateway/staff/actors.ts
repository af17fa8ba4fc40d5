/** How the audit log names people at the counter, and the managers who approved what they did. */
import type { ApiKeyInfo } from '../keys';

/** A staff member working at a counter, through its key. */
export function staffActor(name: string, key: Pick<ApiKeyInfo, 'id' | 'name'>): string {
  return `${name} at ${key.name} (key ${key.id})`;
}

/** A staff member's action that a manager approved for that one request. */
export function approvedActor(name: string, manager: string, key: Pick<ApiKeyInfo, 'id' | 'name'>): string {
  return `${staffActor(name, key)}, approved by manager ${manager}`;
}
