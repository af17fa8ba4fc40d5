// Which screen is in view is a ui/ concern now; tabs, refunds and history still import it by this path.
export { useScreenActive } from '../ui/screen-active';
