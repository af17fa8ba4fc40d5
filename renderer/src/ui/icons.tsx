/** Line icons drawn for the screens (no icon font: the policy allows only the app's own files). */
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

function Icon({ children, ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export function TenderMark(props: IconProps) {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" focusable="false" {...props}>
      <rect x="2" y="2" width="44" height="44" rx="12" fill="#1f6b4f" />
      <path d="M15 17h18M24 17v16" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
      <path d="M17 33h14" fill="none" stroke="#9fd3bb" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

export const CheckIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </Icon>
);

export const CrossIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);

export const AlertIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3.5l9.5 16.5h-19z" />
    <path d="M12 10v4.5M12 17.5v.01" />
  </Icon>
);

export const BackspaceIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 5h11a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H9l-6-7z" />
    <path d="M12.5 9.5l5 5M17.5 9.5l-5 5" />
  </Icon>
);

export const ArrowRightIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);

export const ArrowLeftIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M19 12H5M11 6l-6 6 6 6" />
  </Icon>
);

export const KeyboardIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2.5" y="6" width="19" height="12" rx="2" />
    <path d="M6 10h.01M10 10h.01M14 10h.01M18 10h.01M7 14h10" />
  </Icon>
);

export const CardIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2.5" y="5" width="19" height="14" rx="2.5" />
    <path d="M2.5 10h19M6.5 15h4" />
  </Icon>
);

export const PlugIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 3v5M15 3v5M6 8h12v3a6 6 0 0 1-12 0zM12 17v4" />
  </Icon>
);

export const ClockIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);

/** A card sliding through a reader slot, for the waiting-for-swipe state. */
export function SwipeIllustration(props: IconProps) {
  return (
    <svg viewBox="0 0 240 150" aria-hidden="true" focusable="false" className="swipe-art" {...props}>
      <rect className="swipe-art-slot" x="34" y="82" width="172" height="10" rx="5" />
      {/* Drawn before the reader's front, so its lower edge disappears into the slot. */}
      <g className="swipe-art-card">
        <rect x="60" y="18" width="120" height="84" rx="10" />
        <rect className="swipe-art-stripe" x="60" y="34" width="120" height="14" />
        <rect className="swipe-art-chip" x="74" y="58" width="22" height="16" rx="3" />
      </g>
      <rect className="swipe-art-reader" x="20" y="88" width="200" height="44" rx="12" />
      <circle className="swipe-art-light" cx="200" cy="110" r="5" />
    </svg>
  );
}

/** A screen turned toward the customer, with a hand choosing on it. */
export const CustomerScreenIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="12" rx="2" />
    <path d="M8 20h8M12 16v4" />
    <path d="M9 10h2M13 10h2" />
  </Icon>
);

export function Spinner(props: IconProps) {
  return (
    <svg viewBox="0 0 48 48" className="spinner" aria-hidden="true" focusable="false" {...props}>
      <circle cx="24" cy="24" r="20" fill="none" strokeWidth="5" className="spinner-track" />
      <path
        d="M24 4a20 20 0 0 1 20 20"
        fill="none"
        strokeWidth="5"
        strokeLinecap="round"
        className="spinner-arc"
      />
    </svg>
  );
}
