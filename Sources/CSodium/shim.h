#ifndef PUSHNODE_CSODIUM_SHIM_H
#define PUSHNODE_CSODIUM_SHIM_H
#include <sodium.h>
#endif
