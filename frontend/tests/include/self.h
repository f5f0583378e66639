/* includes itself without a guard: the preprocessor must stop with a diagnostic */
#include "self.h"
