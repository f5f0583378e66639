#ifndef COMMON_H
#define COMMON_H
#define SCALE(x) ((x) * 0.5f)
#endif
