interface BrandLogoProps {
  className?: string;
  /** The tile's colour (the header draws it in the brand blue through currentColor). */
  tile: string;
  /** The waves' colour. */
  waves: string;
}

/** The agency's mark: two waves on a rounded tile. Decorative: the brand's name sits beside it. */
export function BrandLogo({ className, tile, waves }: BrandLogoProps) {
  return (
    <svg className={className} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="12" fill={tile} />
      <path
        d="M8 17c4-4 8-4 12 0s8 4 12 0M8 25c4-4 8-4 12 0s8 4 12 0"
        fill="none"
        stroke={waves}
        strokeWidth="3.2"
        strokeLinecap="round"
      />
    </svg>
  );
}
