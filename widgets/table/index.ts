export { Table } from './table';
