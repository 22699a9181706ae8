export { BooksPage } from './books-page';
