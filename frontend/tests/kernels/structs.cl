typedef struct {
  float x, y;
  int tag;
} point_t;

struct pair { int a; int b[3]; };
union bits { float f; uint u; };

float dist2(point_t p, point_t q) {
  float dx = p.x - q.x, dy = p.y - q.y;
  return dx * dx + dy * dy;
}

kernel void nearest(global const point_t *pts, global float *out, point_t origin, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  point_t p = pts[i];
  struct pair pr = { 1, { 2, 3 } };
  struct pair q = { .b = { [2] = 7 }, .a = 4 };
  union bits u;
  u.f = dist2(p, origin);
  global const point_t *pp = &pts[i];
  out[i] = pp->x + (float)pr.b[1] + (float)q.b[2] + as_float(u.u);
}
