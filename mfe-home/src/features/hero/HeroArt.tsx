/** Decorative waves (the brand's name means "wave"); drawn inline so the hero needs no image request. */
export function HeroArt({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 480 420" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="hero-art-sky" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#16307a" />
          <stop offset="1" stopColor="#2a4fb8" />
        </linearGradient>
      </defs>
      <rect x="0" y="0" width="480" height="420" rx="32" fill="url(#hero-art-sky)" />
      <circle cx="372" cy="96" r="46" fill="#ffc629" />
      <path d="M0 250c60-36 120-36 180 0s120 36 180 0 90-30 120-18v188H0z" fill="#2f5ccc" opacity="0.7" />
      <path d="M0 292c60-30 120-30 180 0s120 30 180 0 90-26 120-16v144H0z" fill="#e8edfb" opacity="0.35" />
      <path d="M0 334c60-26 120-26 180 0s120 26 180 0 90-22 120-14v100H0z" fill="#ffffff" opacity="0.9" />
      <g fill="#ffffff">
        <rect x="40" y="56" width="200" height="112" rx="16" opacity="0.14" />
        <rect x="60" y="80" width="96" height="10" rx="5" opacity="0.9" />
        <rect x="60" y="102" width="150" height="8" rx="4" opacity="0.55" />
        <rect x="60" y="120" width="124" height="8" rx="4" opacity="0.55" />
        <rect x="60" y="140" width="60" height="8" rx="4" fill="#ffc629" />
      </g>
      <g fill="none" stroke="#ffc629" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round">
        <path d="M268 214l40-34 34 22 58-58" />
        <path d="M378 144h22v22" />
      </g>
    </svg>
  );
}
