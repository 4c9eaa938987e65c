export interface Stat {
  value: string;
  label: string;
}

interface StatListProps {
  stats: readonly Stat[];
  /** Each section styles its figures its own way; the markup stays one description list. */
  classes: { list?: string; item?: string; value?: string; label?: string };
}

/** Key figures as a description list: the label describes the figure for screen readers. */
export function StatList({ stats, classes }: StatListProps) {
  return (
    <dl className={classes.list}>
      {stats.map((stat) => (
        <div key={stat.value} className={classes.item}>
          <dt className={classes.label}>{stat.label}</dt>
          <dd className={classes.value}>{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
