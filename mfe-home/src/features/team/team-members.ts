import olenaPhoto from './photos/olena-koval.svg';
import andriiPhoto from './photos/andrii-melnyk.svg';
import martaPhoto from './photos/marta-hnatiuk.svg';

export interface TeamMember {
  name: string;
  position: string;
  photo: string;
  quote: string;
}

/** The three people the home page introduces (fixed content). */
export const TEAM_MEMBERS: readonly TeamMember[] = [
  {
    name: 'Олена Коваль',
    position: 'Засновниця та стратегиня',
    photo: olenaPhoto,
    quote: 'Добрий маркетинг починається з чесної розмови про цілі бізнесу, а не з вибору соцмережі.',
  },
  {
    name: 'Андрій Мельник',
    position: 'Керівник відділу реклами',
    photo: andriiPhoto,
    quote: 'Кожну кампанію ми рахуємо так, ніби вкладаємо власні гроші.',
  },
  {
    name: 'Марта Гнатюк',
    position: 'Креативна директорка',
    photo: martaPhoto,
    quote: 'Контент продає тоді, коли він справді корисний людині по той бік екрана.',
  },
];
