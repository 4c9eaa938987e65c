import grid from './card-grid.module.css';

interface CardPlaceholdersProps {
  count: number;
  testId: string;
}

/** Card-sized blocks in the cards' grid while posts load, so nothing below jumps when they arrive. */
export function CardPlaceholders({ count, testId }: CardPlaceholdersProps) {
  return (
    <div className={grid.grid} aria-hidden="true" data-testid={testId}>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={grid.placeholder}>
          <div className={grid.placeholderImage} />
          <div className={grid.placeholderBody} />
        </div>
      ))}
    </div>
  );
}
