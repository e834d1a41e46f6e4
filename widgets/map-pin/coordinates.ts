import type { LatLng } from '../../schemas/generated/types';

export type { LatLng };

/** Decimals kept in the form fields and shown (6 decimals ≈ 0.1 m). */
export const COORDINATE_DECIMALS = 6;

/** A coordinate rounded to {@link COORDINATE_DECIMALS} decimals (degrees). */
export function roundCoordinate(value: number): number {
  return Number(value.toFixed(COORDINATE_DECIMALS));
}

/** A point with both coordinates rounded to 6 decimals. */
export function roundLatLng(point: LatLng): LatLng {
  return { lat: roundCoordinate(point.lat), lng: roundCoordinate(point.lng) };
}

/**
 * A form value read as a coordinate: a finite number (or numeric text) within ±`limit` degrees (90 for a
 * latitude, 180 for a longitude); undefined for anything else, including an empty field.
 */
export function coordinateOf(value: unknown, limit: number): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** The pin held by two form values, or null while either is not a valid coordinate. */
export function pinOf(lat: unknown, lng: unknown): LatLng | null {
  const a = coordinateOf(lat, 90);
  const b = coordinateOf(lng, 180);
  return a === undefined || b === undefined ? null : { lat: a, lng: b };
}

/** 'lat, lng' with 6 decimals, e.g. '28.399174, 77.038765'. */
export function formatLatLng(point: LatLng): string {
  return `${point.lat.toFixed(COORDINATE_DECIMALS)}, ${point.lng.toFixed(COORDINATE_DECIMALS)}`;
}

/** A key telling two points apart at the precision kept (null for no pin). */
export function pinKey(point: LatLng | null): string {
  return point ? formatLatLng(point) : '';
}
