// espeak-ng 1.51 (Debian's libespeak-ng-dev): the box's voice, synthesised on the box.
#include <espeak-ng/speak_lib.h>
