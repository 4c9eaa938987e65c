import { blogListingPath, type BlogCategoryCount } from '@agency/shared';
import { Link } from '@agency/shared/router';
import styles from './BlogListPage.module.css';

interface CategoryFilterProps {
  categories: BlogCategoryCount[];
  /** The category shown, or null for every post. */
  active: string | null;
  onNavigate: () => void;
}

/** "Усі" and every category with its count, as links; the one shown is marked current. */
export function CategoryFilter({ categories, active, onNavigate }: CategoryFilterProps) {
  const total = categories.reduce((sum, category) => sum + category.count, 0);
  const options = [{ name: null, label: 'Усі', count: total }, ...categories.map((category) => ({ ...category, label: category.name }))];
  return (
    <nav aria-label="Рубрики блогу">
      <ul className={styles.filter}>
        {options.map(({ name, label, count }) => (
          <li key={name ?? ''}>
            <Link
              to={blogListingPath({ category: name })}
              className={styles.filterLink}
              aria-current={name === active ? 'page' : undefined}
              onClick={onNavigate}
            >
              {label} <span className={styles.count}>{count}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
