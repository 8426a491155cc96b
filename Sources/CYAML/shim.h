#ifndef PUSHNODE_CYAML_SHIM_H
#define PUSHNODE_CYAML_SHIM_H
#include <yaml.h>
#endif
