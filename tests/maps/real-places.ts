/**
 * A drawn variant read for the tests that hold its drawing against real geography: its data, its geometry, the
 * drawing's borders, and which province the drawing puts at a real place (longitude, latitude, through the
 * projection the generator used).
 */
import { geoConicConformal } from 'd3-geo';
import { MapDataSchema, type ParsedMapData } from '../../shared/variant/schema.ts';
import { type Geometry, insideRings, readDrawing } from './geometry-borders.ts';

type ProjectedGeometry = Geometry & {
  projection: { parallels: [number, number]; rotate: [number, number]; scale: number; translate: [number, number] };
};

export function realPlaces(data: unknown, geometryJson: unknown) {
  const map: ParsedMapData = MapDataSchema.parse(data);
  const geometry = geometryJson as ProjectedGeometry;
  const drawing = readDrawing(map, geometry);
  const projection = geoConicConformal()
    .parallels(geometry.projection.parallels)
    .rotate(geometry.projection.rotate)
    .scale(geometry.projection.scale)
    .translate(geometry.projection.translate);

  /** The province drawn at a real place, or null for out-of-play ground and water. */
  function provinceAt(lon: number, lat: number): string | null {
    const pt = projection([lon, lat])!;
    const hits = Object.entries(geometry.provinces)
      .filter(([, rings]) => insideRings(rings, pt))
      .map(([id]) => id);
    return hits.length === 1 ? hits[0] : hits.length === 0 ? null : `several: ${hits.join(', ')}`;
  }

  return { map, geometry, drawing, provinceAt };
}
