// The route table is shared with the BFF: schemas/app/routes.ts.
export * from '../../schemas/app/routes';
