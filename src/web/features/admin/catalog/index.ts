export { CatalogPage } from './catalog-page';
