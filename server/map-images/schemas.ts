/** The map pictures' route schemas: a game (its current position) or one of its phases, and the picture's answer. */
import { z } from 'zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import { PhaseParamsSchema } from '../../shared/api/play.ts';

export const CurrentMapParamsSchema = GameIdParamsSchema;
export const PhaseMapParamsSchema = PhaseParamsSchema;

export const SvgAnswerSchema = z.string().describe('The map as an SVG document (image/svg+xml)');
export const PngAnswerSchema = z.string().describe('The map as a PNG image (binary, image/png)');
