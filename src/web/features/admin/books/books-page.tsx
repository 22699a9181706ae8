// /quan-tri/sach: the books (with each bank's size against what an exam draws), then one book's
// page with its details, cover, question bank and import, and its question quality (chat-luong). Links are relative to /quan-tri/sach.
import { Route, Switch } from 'wouter';
import { BookList } from './book-list';
import { BookPage } from './book-page';
import { QualityPage } from '../quality';
import './books.css';

export function BooksPage() {
  return (
    <Switch>
      <Route path="/">
        <BookList />
      </Route>
      <Route path="/:bookId/chat-luong">{(params) => <QualityPage key={params.bookId} bookId={Number(params.bookId)} />}</Route>
      <Route path="/:bookId">{(params) => <BookPage key={params.bookId} bookId={Number(params.bookId)} />}</Route>
    </Switch>
  );
}
