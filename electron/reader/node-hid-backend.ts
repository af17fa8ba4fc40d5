/**
 * The real USB side of the reader, and the only importer of node-hid. node-hid loads its native
 * binding (and libudev / libusb) on first use, so importing this file costs nothing until a scan.
 */
import { devicesAsync, HIDAsync, setDriverType } from 'node-hid';
import type { HidBackend, HidDeviceInfo, HidReportDevice } from './reader';

/**
 * node-hid over hidapi. On Linux the hidraw backend hands over whole reports; the libusb one can
 * split an 887-byte report into packets. Without the `usb` package there is no plug notification,
 * so MagtekReaders polls list() at a modest interval.
 */
export function nodeHidBackend(): HidBackend {
  if (process.platform === 'linux') setDriverType('hidraw');
  return {
    async list(vendorId: number): Promise<HidDeviceInfo[]> {
      // Product id 0 lists every product of the vendor.
      const devices = await devicesAsync(vendorId, 0);
      return devices.flatMap((device) =>
        device.path
          ? [
              {
                path: device.path,
                vendorId: device.vendorId,
                productId: device.productId,
                ...(device.usagePage !== undefined && { usagePage: device.usagePage }),
                ...(device.usage !== undefined && { usage: device.usage }),
                ...(device.product && { product: device.product }),
                ...(device.serialNumber && { serialNumber: device.serialNumber }),
              },
            ]
          : [],
      );
    },

    async open(device: HidDeviceInfo): Promise<HidReportDevice> {
      const hid = await HIDAsync.open(device.path);
      return {
        onReport: (listener) => hid.on('data', (report: Buffer) => listener(report)),
        // An EventEmitter without an error listener throws; this one is always attached.
        onError: (listener) =>
          hid.on('error', (error: unknown) =>
            listener(error instanceof Error ? error : new Error(String(error))),
          ),
        close: () => hid.close(),
      };
    },
  };
}
