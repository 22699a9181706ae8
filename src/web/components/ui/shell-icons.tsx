// The icons of the page frame and the home page (header, footer, home news), drawn from lucide
// (ISC licence) as plain inline SVG: lucide-react's icon factory costs the home page's bundle about
// 1.5 KB gzipped for nine icons. Same geometry and strokes as lucide-react's components; the
// screens behind the home page keep using lucide-react.
import type { ReactNode } from 'react';

interface IconProps {
  size?: number;
  className?: string;
}

function icon(name: string, shapes: ReactNode) {
  function Icon({ size = 24, className }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className ? `lucide lucide-${name} ${className}` : `lucide lucide-${name}`}
        aria-hidden="true"
        focusable="false"
      >
        {shapes}
      </svg>
    );
  }
  return Icon;
}

export const ArrowRight = icon('arrow-right', <path d="M5 12h14M12 5l7 7-7 7" />);
export const ChevronDown = icon('chevron-down', <path d="m6 9 6 6 6-6" />);
export const LogOut = icon('log-out', <path d="m16 17 5-5-5-5M21 12H9M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />);
export const Mail = icon(
  'mail',
  <>
    <path d="m22 7-8.991 5.727a2 2 0 0 1-2.009 0L2 7" />
    <rect x="2" y="4" width="20" height="16" rx="2" />
  </>,
);
export const MapPin = icon(
  'map-pin',
  <>
    <path d="M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0" />
    <circle cx="12" cy="10" r="3" />
  </>,
);
export const Menu = icon('menu', <path d="M4 5h16M4 12h16M4 19h16" />);
export const Phone = icon(
  'phone',
  <path d="M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384" />,
);
export const UserRound = icon(
  'user-round',
  <>
    <circle cx="12" cy="8" r="5" />
    <path d="M20 21a8 8 0 0 0-16 0" />
  </>,
);
export const X = icon('x', <path d="M18 6 6 18M6 6l12 12" />);
