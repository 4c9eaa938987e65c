import BetterSqlite3 from 'better-sqlite3';
import { withStatementCache } from '../../../src/platform/db/sqlite-statement-cache';
import { testDialect } from '../../helpers/database';

(testDialect() === 'sqlite' ? describe : describe.skip)('SQLite statements kept prepared', () => {
  let sqlite: BetterSqlite3.Database;

  beforeEach(() => {
    sqlite = new BetterSqlite3(':memory:');
    sqlite.exec('create table notes (id integer primary key, text text not null)');
  });

  afterEach(() => sqlite.close());

  it('answers every query right past the cache size, earlier statements again too', () => {
    const database = withStatementCache(sqlite);
    for (let id = 1; id <= 1200; id += 1) database.prepare(`insert into notes (id, text) values (${id}, ?)`).run([`note ${id}`]);
    for (const id of [1, 600, 1200, 1]) {
      expect(database.prepare(`select text from notes where id = ${id}`).all([])).toEqual([{ text: `note ${id}` }]);
    }
    expect(database.prepare('select count(*) as n from notes').all([])).toEqual([{ n: 1200 }]);
  });

  it('gives a second, working statement while the first still streams its rows', () => {
    const database = withStatementCache(sqlite);
    for (let id = 1; id <= 3; id += 1) sqlite.prepare('insert into notes (id, text) values (?, ?)').run(id, `note ${id}`);
    const query = 'select id from notes order by id';
    const streamed: unknown[] = [];
    for (const row of database.prepare(query).iterate([])) {
      streamed.push(row);
      expect(database.prepare(query).all([])).toHaveLength(3);
    }
    expect(streamed).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('sees a column a migration added after the statement was first prepared', () => {
    const database = withStatementCache(sqlite);
    sqlite.prepare('insert into notes (id, text) values (1, ?)').run('first');
    expect(database.prepare('select * from notes').all([])).toEqual([{ id: 1, text: 'first' }]);
    sqlite.exec("alter table notes add column author text not null default 'olena'");
    expect(database.prepare('select * from notes').all([])).toEqual([{ id: 1, text: 'first', author: 'olena' }]);
  });
});
