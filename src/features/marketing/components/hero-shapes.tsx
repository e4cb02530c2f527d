/**
 * Decorative shapes behind the hero: shown only on windows at least 1280 px
 * wide and 700 px high, kept to the edges so they never sit under text,
 * animated with transform alone, and still when the visitor prefers reduced motion.
 */
export function HeroShapes() {
  return (
    <div
      data-hero-shapes
      aria-hidden="true"
      className="pointer-events-none absolute inset-0 hidden overflow-hidden shapes:block"
    >
      <div className="absolute -top-24 -right-24 size-[28rem] rounded-full border-[40px] border-azure-500/15 motion-safe:animate-float-slow" />
      <div className="absolute -bottom-40 -left-40 size-64 rounded-[4rem] border-2 border-azure-400/20 motion-safe:animate-float" />
      <div className="absolute top-24 left-[46%] size-4 rounded-full bg-mint-400/70 motion-safe:animate-float" />
      <div className="absolute right-[30%] bottom-10 size-3 rounded-full bg-azure-400/80 motion-safe:animate-float-slow" />
      <svg
        className="absolute right-8 bottom-8 h-20 w-32 text-white/10"
        viewBox="0 0 128 80"
        fill="currentColor"
      >
        {Array.from({ length: 21 }, (_, index) => (
          <circle
            key={index}
            cx={8 + (index % 7) * 18}
            cy={10 + Math.floor(index / 7) * 28}
            r="2.5"
          />
        ))}
      </svg>
    </div>
  );
}
