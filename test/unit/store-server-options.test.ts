import { describe, expect, it } from 'vitest';
import { StoreServerSettingError, storeServerOptions } from '../../electron/gateway/store-server-options';

const AS_ENV = { database: 'TENDER_DATABASE', lane: 'TENDER_LANE' };
const URL = 'postgresql://tender@store-server.lan:5432/tender?sslmode=verify-full';

describe('the store server settings', () => {
  it('neither set keeps the ledger in the data dir', () => {
    expect(storeServerOptions({}, AS_ENV)).toBeUndefined();
    expect(storeServerOptions({ database: ' ', lane: '' }, AS_ENV)).toBeUndefined();
  });

  it('both set name the store server and the lane', () => {
    expect(storeServerOptions({ database: URL, lane: 'counter-2' }, AS_ENV)).toEqual({
      url: URL,
      lane: 'counter-2',
    });
    expect(storeServerOptions({ database: 'postgres://s/t', lane: 'A1' }, AS_ENV)).toEqual({
      url: 'postgres://s/t',
      lane: 'A1',
    });
  });

  it.each([
    [{ lane: 'front' }, /TENDER_LANE needs TENDER_DATABASE/],
    [{ database: URL }, /TENDER_DATABASE needs TENDER_LANE/],
    [{ database: 'store-server.lan', lane: 'front' }, /TENDER_DATABASE must be a postgresql:\/\/ URL/],
    [
      { database: URL, lane: 'front desk' },
      /TENDER_LANE must be 1 to 16 letters, digits or hyphens, not "front desk"/,
    ],
    [{ database: URL, lane: 'a-very-long-lane-name' }, /TENDER_LANE must be 1 to 16/],
    [{ database: URL, lane: 'caisse-é' }, /TENDER_LANE must be 1 to 16/],
  ])('%j is refused, naming the setting to change', (values, message) => {
    expect(() => storeServerOptions(values, AS_ENV)).toThrow(StoreServerSettingError);
    expect(() => storeServerOptions(values, AS_ENV)).toThrow(message);
  });
});
