/**
 * Sigma's disc node program with a ring: the fill is the node's `color` (entity type), the
 * outer band is `ringColor` (source tool). Same geometry and picking as NodeCircleProgram.
 */
import type { Attributes } from 'graphology-types';
import { NodeProgram, type ProgramInfo } from 'sigma/rendering';
import type { NodeDisplayData, RenderParams } from 'sigma/types';
import { floatColor } from 'sigma/utils';

const FRAGMENT = /* glsl */ `
precision highp float;

varying vec4 v_color;
varying vec4 v_ringColor;
varying vec2 v_diffVector;
varying float v_radius;

uniform float u_correctionRatio;

const vec4 transparent = vec4(0.0, 0.0, 0.0, 0.0);

void main(void) {
  float border = u_correctionRatio * 2.0;
  float d = length(v_diffVector);
  float dist = d - v_radius + border;

  #ifdef PICKING_MODE
  if (dist > border)
    gl_FragColor = transparent;
  else
    gl_FragColor = v_color;
  #else
  float ringWidth = max(v_radius * 0.24, u_correctionRatio * 1.5);
  vec4 inner = d < v_radius - ringWidth ? v_color : v_ringColor;
  float t = 0.0;
  if (dist > border)
    t = 1.0;
  else if (dist > 0.0)
    t = dist / border;
  gl_FragColor = mix(inner, transparent, t);
  #endif
}
`;

const VERTEX = /* glsl */ `
attribute vec4 a_id;
attribute vec4 a_color;
#ifndef PICKING_MODE
attribute vec4 a_ringColor;
#endif
attribute vec2 a_position;
attribute float a_size;
attribute float a_angle;

uniform mat3 u_matrix;
uniform float u_sizeRatio;
uniform float u_correctionRatio;

varying vec4 v_color;
varying vec4 v_ringColor;
varying vec2 v_diffVector;
varying float v_radius;

const float bias = 255.0 / 254.0;

void main() {
  float size = a_size * u_correctionRatio / u_sizeRatio * 4.0;
  vec2 diffVector = size * vec2(cos(a_angle), sin(a_angle));
  vec2 position = a_position + diffVector;
  gl_Position = vec4((u_matrix * vec3(position, 1)).xy, 0, 1);

  v_diffVector = diffVector;
  v_radius = size / 2.0;

  #ifdef PICKING_MODE
  v_color = a_id;
  v_ringColor = a_id;
  #else
  v_color = a_color;
  v_ringColor = a_ringColor;
  v_ringColor.a *= bias;
  #endif

  v_color.a *= bias;
}
`;

const UNIFORMS = ['u_sizeRatio', 'u_correctionRatio', 'u_matrix'] as const;
const FLOAT = 5126; // WebGLRenderingContext.FLOAT (no WebGL global needed at import time)
const UNSIGNED_BYTE = 5121;
const TRIANGLES = 4;

export class NodeRingProgram<N extends Attributes = Attributes, E extends Attributes = Attributes, G extends Attributes = Attributes> extends NodeProgram<
  (typeof UNIFORMS)[number],
  N,
  E,
  G
> {
  static readonly ANGLE_1 = 0;
  static readonly ANGLE_2 = (2 * Math.PI) / 3;
  static readonly ANGLE_3 = (4 * Math.PI) / 3;

  getDefinition() {
    return {
      VERTICES: 3,
      VERTEX_SHADER_SOURCE: VERTEX,
      FRAGMENT_SHADER_SOURCE: FRAGMENT,
      METHOD: TRIANGLES,
      UNIFORMS,
      ATTRIBUTES: [
        { name: 'a_position', size: 2, type: FLOAT },
        { name: 'a_size', size: 1, type: FLOAT },
        { name: 'a_color', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_ringColor', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_id', size: 4, type: UNSIGNED_BYTE, normalized: true },
      ],
      CONSTANT_ATTRIBUTES: [{ name: 'a_angle', size: 1, type: FLOAT }],
      CONSTANT_DATA: [[NodeRingProgram.ANGLE_1], [NodeRingProgram.ANGLE_2], [NodeRingProgram.ANGLE_3]],
    };
  }

  processVisibleItem(nodeIndex: number, startIndex: number, data: NodeDisplayData): void {
    const array = this.array;
    const ring = (data as NodeDisplayData & { ringColor?: string }).ringColor ?? data.color;
    array[startIndex++] = data.x;
    array[startIndex++] = data.y;
    array[startIndex++] = data.size;
    array[startIndex++] = floatColor(data.color);
    array[startIndex++] = floatColor(ring);
    array[startIndex++] = nodeIndex;
  }

  setUniforms(params: RenderParams, { gl, uniformLocations }: ProgramInfo): void {
    const { u_sizeRatio, u_correctionRatio, u_matrix } = uniformLocations;
    gl.uniform1f(u_correctionRatio ?? null, params.correctionRatio);
    gl.uniform1f(u_sizeRatio ?? null, params.sizeRatio);
    gl.uniformMatrix3fv(u_matrix ?? null, false, params.matrix);
  }
}
