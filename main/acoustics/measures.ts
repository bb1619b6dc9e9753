/** The vocabulary of local acoustic measures lives in shared/ (the renderer shows it too); re-exported here. */
export {
  localMeasureName,
  MEASURE_KEYS,
  MEASURES,
  type MeasureKey,
  type Measures,
} from '../../shared/acoustics/measures';
