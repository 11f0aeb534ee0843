/* redirect.h for the worker: nothing of it is used (see criterion.h beside it). */
#include "criterion.h"
